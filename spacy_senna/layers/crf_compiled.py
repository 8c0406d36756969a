"""The 1-best Viterbi on the CPU as one compiled loop (Numba), the way SENNA's C decoded.

Torch's and NumPy's decoders (`crf_viterbi`) pay a fixed cost per operation, a dozen
operations per position, so decoding one short sentence cost hundreds of microseconds
whatever its arithmetic. Here one call decodes every row of a model call: each position's
max-plus step runs previous tag by previous tag over all next tags at once (a loop the
compiler turns into vector operations; a forbidden transition is -inf and never wins),
and the backtrace takes the first maximum in tag order.

A large constrained CRF reads only the transitions it allows, laid out as
`transition_blocks.TransitionBlocks` lays them out for the NumPy and torch decoders: one
dense block where many previous tags may precede a next tag (IOBES: O, B-* and S-* after
O, E-* and S-*) and, for the other next tags (I-x and E-x: after B-x and I-x), their few
previous tags each. SRL's 181 tags make 32,761 transitions; the block holds 91 x 91.

The sums are the ones `viterbi` makes, in the same order and precision (start and end
scores folded into the emissions first), and a maximum does not depend on the order it is
taken in nor on the -inf it leaves out, so the paths are the same, ties included.
"""

from typing import List, NamedTuple, Optional, Sequence, Tuple

import numpy
import torch
from torch import Tensor

from ..runtime.compiled import njit
from .transition_blocks import TransitionBlocks

#: a CRF with fewer tags decodes densely whatever it forbids: a step over all its
#: transitions is a few vector operations, as cheap as reading the block and the narrow
#: tags (one core, 400 rows of 60: SRL's 181 tags decode 1.9 times as fast from the
#: allowed ones, the chunker's 45 4-7% faster, the ner's 13 4-5% slower;
#: `benchmarks/speed/viterbi_layouts.py`)
DENSE_BELOW_TAGS = 64


class AllowedTransitions(NamedTuple):
    """`TransitionBlocks` in the original tag order, as `blocked_best_paths` reads them:
    the block's previous tags `wide_sources`, next tags `wide_targets` and scores `wide`
    (previous x next); each narrow next tag `narrow_targets[r]` with its previous tags
    `narrow_sources[r]` and their scores `narrow[r]` (padded with -inf)."""

    wide_sources: numpy.ndarray
    wide_targets: numpy.ndarray
    wide: numpy.ndarray
    narrow_sources: numpy.ndarray
    narrow_targets: numpy.ndarray
    narrow: numpy.ndarray


def allowed_transitions(transitions: Tensor) -> AllowedTransitions:
    """The allowed (finite) part of `transitions` (C, C, previous x next) for
    `blocked_best_paths`."""
    blocks = TransitionBlocks(transitions, torch.isfinite(transitions))
    order = blocks.order.cpu().numpy()
    return AllowedTransitions(
        order[blocks.prev_slice],
        order[: blocks.n_wide],
        numpy.ascontiguousarray(blocks.block.cpu().numpy()),
        order[blocks.narrow_prev.cpu().numpy()],
        order[blocks.n_wide :],
        numpy.ascontiguousarray(blocks.narrow_values.cpu().numpy()),
    )


class CompiledTransitions(NamedTuple):
    """A transition matrix (with its start and end scores) laid out for `best_paths`."""

    preceding: numpy.ndarray  # (C, C): preceding[i, j] = transitions[i, j], previous x next
    following: numpy.ndarray  # (C, C): following[j, i] = transitions[i, j]
    start: numpy.ndarray  # (C,)
    end: numpy.ndarray  # (C,) zeros when the CRF has no end scores
    allowed: Optional[AllowedTransitions]  # None: decoded densely


def compile_transitions(
    transitions: Tensor, start: Tensor, end: "Tensor | None"
) -> CompiledTransitions:
    """`transitions` (C, C, previous x next), `start` (C,) and `end` (C,) or None, as
    `best_paths` reads them."""
    preceding = transitions.detach().cpu().contiguous().numpy()
    following = numpy.ascontiguousarray(preceding.T)
    start_np = start.detach().cpu().to(transitions.dtype).numpy()
    end_np = (
        numpy.zeros_like(start_np)
        if end is None
        else end.detach().cpu().to(transitions.dtype).numpy()
    )
    allowed = None
    if len(preceding) >= DENSE_BELOW_TAGS and not numpy.isfinite(preceding).all():
        allowed = allowed_transitions(transitions.detach().cpu())
    return CompiledTransitions(preceding, following, start_np, end_np, allowed)


def compiled_decode(
    chunks: Sequence[Tuple[Tensor, Tensor]], compiled: CompiledTransitions
) -> List[Tensor]:
    """The best paths of each (emissions (B, T, C), lengths (B,)) pair on the CPU: per
    pair, its (B, T) int64 paths, -1 past each row's end."""
    out = []
    for emissions, lengths in chunks:
        scores = emissions.detach()
        paths = numpy.full(tuple(scores.shape[:2]), -1, dtype=numpy.int64)
        scores_np = numpy.ascontiguousarray(scores.numpy())
        lengths_np = lengths.numpy().astype(numpy.int64, copy=False)
        ends = (compiled.start, compiled.end)
        if compiled.allowed is None:
            best_paths(scores_np, lengths_np, *ends, compiled.preceding, compiled.following, paths)
        else:
            blocked_best_paths(
                scores_np, lengths_np, *ends, *compiled.allowed, compiled.following, paths
            )
        out.append(torch.from_numpy(paths))
    return out


@njit(cache=True, nogil=True)
def _first_position(emissions, b, n, start, end, delta):
    """delta[0]: the first position's scores (with the end scores for a one-tag row)."""
    for j in range(emissions.shape[2]):
        score = emissions[b, 0, j] + start[j]
        if n == 1:
            score = score + end[j]
        delta[0, j] = score


@njit(cache=True, nogil=True)
def _next_position(emissions, b, t, n, end, reach, delta):
    """delta[t] from the best score into each tag, `reach`."""
    for j in range(emissions.shape[2]):
        score = emissions[b, t, j]
        if t == n - 1:
            score = score + end[j]
        delta[t, j] = score + reach[j]


@njit(cache=True, nogil=True)
def _backtrace(delta, n, following, paths, b):
    """Row b's path from its scores `delta` (the first maximum in tag order)."""
    n_tags = delta.shape[1]
    tag = 0
    for j in range(1, n_tags):
        if delta[n - 1, j] > delta[n - 1, tag]:
            tag = j
    paths[b, n - 1] = tag
    for t in range(n - 2, -1, -1):
        best_tag = 0
        best = delta[t, 0] + following[tag, 0]
        for i in range(1, n_tags):
            value = delta[t, i] + following[tag, i]
            if value > best:
                best = value
                best_tag = i
        tag = best_tag
        paths[b, t] = tag


@njit(cache=True, nogil=True)
def best_paths(emissions, lengths, start, end, preceding, following, paths):
    """Fill `paths` (B, T) with each row's best path (-1 past its end, as given)."""
    n_rows, longest, n_tags = emissions.shape
    delta = numpy.empty((max(longest, 1), n_tags), dtype=emissions.dtype)
    reach = numpy.empty(n_tags, dtype=emissions.dtype)  # best score into each tag
    for b in range(n_rows):
        n = lengths[b]
        if n == 0:
            continue
        _first_position(emissions, b, n, start, end, delta)
        for t in range(1, n):
            reach[:] = -numpy.inf
            for i in range(n_tags):
                previous = delta[t - 1, i]
                for j in range(n_tags):  # contiguous in j: vector operations
                    value = previous + preceding[i, j]
                    if value > reach[j]:
                        reach[j] = value
            _next_position(emissions, b, t, n, end, reach, delta)
        _backtrace(delta, n, following, paths, b)


@njit(cache=True, nogil=True)
def blocked_best_paths(
    emissions,
    lengths,
    start,
    end,
    wide_sources,
    wide_targets,
    wide,
    narrow_sources,
    narrow_targets,
    narrow,
    following,
    paths,
):
    """`best_paths` reading only the allowed transitions (`AllowedTransitions`' arrays):
    each position's step as `TransitionBlocks.max_plus_numpy` takes it."""
    n_rows, longest, n_tags = emissions.shape
    delta = numpy.empty((max(longest, 1), n_tags), dtype=emissions.dtype)
    reach = numpy.empty(n_tags, dtype=emissions.dtype)  # best score into each tag
    within = numpy.empty(len(wide_targets), dtype=emissions.dtype)  # the block's, in order
    for b in range(n_rows):
        n = lengths[b]
        if n == 0:
            continue
        _first_position(emissions, b, n, start, end, delta)
        for t in range(1, n):
            within[:] = -numpy.inf
            for a in range(len(wide_sources)):
                previous = delta[t - 1, wide_sources[a]]
                for j in range(len(wide_targets)):  # contiguous in j: vector operations
                    value = previous + wide[a, j]
                    if value > within[j]:
                        within[j] = value
            for j in range(len(wide_targets)):
                reach[wide_targets[j]] = within[j]
            for r in range(len(narrow_targets)):
                best = -numpy.inf
                for w in range(narrow.shape[1]):
                    value = delta[t - 1, narrow_sources[r, w]] + narrow[r, w]
                    if value > best:
                        best = value
                reach[narrow_targets[r]] = best
            _next_position(emissions, b, t, n, end, reach, delta)
        _backtrace(delta, n, following, paths, b)
