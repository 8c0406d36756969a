"""The 1-best Viterbi on the CPU as one compiled loop (Numba), the way SENNA's C decoded.

Torch's and NumPy's decoders (`crf_viterbi`) pay a fixed cost per operation, a dozen
operations per position, so decoding one short sentence cost hundreds of microseconds
whatever its arithmetic. Here one call decodes every row of a model call: each position's
max-plus step runs previous tag by previous tag over all next tags at once (a loop the
compiler turns into vector operations; a forbidden transition is -inf and never wins),
and the backtrace takes the first maximum in tag order.

A large constrained CRF reads only the transitions it allows (`TransitionBlocks`): its
next tags grouped by the set of previous tags they may follow (IOBES: O, B-* and S-*
follow O, E-* and S-*), each group one dense block, and the next tags that few may follow
(I-x and E-x: B-x and I-x) read edge by edge. SRL's 181 tags make 32,761 transitions, of
which 8,461 are allowed.

The sums are the ones `viterbi` makes, in the same order and precision (start and end
scores folded into the emissions first), and a maximum does not depend on the order it is
taken in nor on the -inf it leaves out, so the paths are the same, ties included.
"""

from typing import List, NamedTuple, Optional, Sequence, Tuple

import numpy
import torch
from numba import njit
from torch import Tensor

#: a CRF with fewer tags decodes densely whatever it forbids: a step over all its
#: transitions is a few vector operations, cheaper than reading blocks and edges (one
#: core: SRL's 181 tags decode 1.9 times as fast in blocks, the chunker's 45 and the
#: ner's 13 10-15% slower; `benchmarks/speed/viterbi_layouts.py` times both layouts)
DENSE_BELOW_TAGS = 64
#: a next tag with fewer allowed previous tags than this is read edge by edge, not in a
#: block (a block's loop pays a fixed cost before its vector operations)
BLOCK_MIN_SOURCES = 8


class TransitionBlocks(NamedTuple):
    """A constrained CRF's allowed (finite) transitions: dense blocks, where many previous
    tags may precede a group of next tags, and single edges into the other next tags.

    Block k's next tags `targets[target_at[k]:target_at[k + 1]]` may follow exactly the
    previous tags `sources[source_at[k]:source_at[k + 1]]`, with their scores in the same
    rows of `weights` (one column per next tag, from the first); edge e goes from
    `edge_sources[e]` to `edge_targets[e]` with the score `edge_weights[e]`."""

    sources: numpy.ndarray
    source_at: numpy.ndarray
    targets: numpy.ndarray
    target_at: numpy.ndarray
    weights: numpy.ndarray
    edge_sources: numpy.ndarray
    edge_targets: numpy.ndarray
    edge_weights: numpy.ndarray


class CompiledTransitions(NamedTuple):
    """A transition matrix (with its start and end scores) laid out for `best_paths`."""

    preceding: numpy.ndarray  # (C, C): preceding[i, j] = transitions[i, j], previous x next
    following: numpy.ndarray  # (C, C): following[j, i] = transitions[i, j]
    start: numpy.ndarray  # (C,)
    end: numpy.ndarray  # (C,) zeros when the CRF has no end scores
    blocks: Optional[TransitionBlocks]  # None: decoded densely


def transition_blocks(preceding: numpy.ndarray) -> TransitionBlocks:
    """The allowed transitions of `preceding` (C, C, previous x next): a block per set of
    previous tags shared by next tags (in order of its first next tag), and edges."""
    allowed = numpy.isfinite(preceding)
    groups: dict = {}
    edges: List[Tuple[int, int]] = []
    for j in range(len(preceding)):
        previous = numpy.flatnonzero(allowed[:, j])
        if len(previous) >= BLOCK_MIN_SOURCES:
            groups.setdefault(previous.tobytes(), (previous, []))[1].append(j)
        else:
            edges.extend((i, j) for i in previous.tolist())
    sources = [previous for previous, _ in groups.values()]
    targets = [numpy.asarray(members) for _, members in groups.values()]
    widest = max((len(t) for t in targets), default=0)
    weights = numpy.full((sum(len(p) for p in sources), widest), -numpy.inf, preceding.dtype)
    row = 0
    for previous, members in zip(sources, targets):
        weights[row : row + len(previous), : len(members)] = preceding[numpy.ix_(previous, members)]
        row += len(previous)
    edge_sources = numpy.array([i for i, _ in edges], dtype=numpy.int64)
    edge_targets = numpy.array([j for _, j in edges], dtype=numpy.int64)
    return TransitionBlocks(
        *_joined(sources),
        *_joined(targets),
        weights,
        edge_sources,
        edge_targets,
        preceding[edge_sources, edge_targets],
    )


def _joined(parts: List[numpy.ndarray]) -> Tuple[numpy.ndarray, numpy.ndarray]:
    """The parts end to end (int64) and where each starts (with the end)."""
    at = numpy.cumsum([0] + [len(part) for part in parts]).astype(numpy.int64)
    return numpy.concatenate(parts or [numpy.zeros(0)]).astype(numpy.int64), at


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
    blocks = None
    if len(preceding) >= DENSE_BELOW_TAGS and not numpy.isfinite(preceding).all():
        blocks = transition_blocks(preceding)
    return CompiledTransitions(preceding, following, start_np, end_np, blocks)


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
        if compiled.blocks is None:
            best_paths(scores_np, lengths_np, *ends, compiled.preceding, compiled.following, paths)
        else:
            blocked_best_paths(
                scores_np, lengths_np, *ends, *compiled.blocks, compiled.following, paths
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
    sources,
    source_at,
    targets,
    target_at,
    weights,
    edge_sources,
    edge_targets,
    edge_weights,
    following,
    paths,
):
    """`best_paths` reading only the allowed transitions (`TransitionBlocks`' arrays)."""
    n_rows, longest, n_tags = emissions.shape
    delta = numpy.empty((max(longest, 1), n_tags), dtype=emissions.dtype)
    reach = numpy.empty(n_tags, dtype=emissions.dtype)  # best score into each tag
    within = numpy.empty(n_tags, dtype=emissions.dtype)  # the same, in one block
    for b in range(n_rows):
        n = lengths[b]
        if n == 0:
            continue
        _first_position(emissions, b, n, start, end, delta)
        for t in range(1, n):
            reach[:] = -numpy.inf
            for e in range(len(edge_sources)):
                value = delta[t - 1, edge_sources[e]] + edge_weights[e]
                if value > reach[edge_targets[e]]:
                    reach[edge_targets[e]] = value
            for k in range(len(source_at) - 1):
                first, m = target_at[k], target_at[k + 1] - target_at[k]
                within[:m] = -numpy.inf
                for a in range(source_at[k], source_at[k + 1]):
                    previous = delta[t - 1, sources[a]]
                    for j in range(m):  # contiguous in j: vector operations
                        value = previous + weights[a, j]
                        if value > within[j]:
                            within[j] = value
                for j in range(m):
                    reach[targets[first + j]] = within[j]
            _next_position(emissions, b, t, n, end, reach, delta)
        _backtrace(delta, n, following, paths, b)
