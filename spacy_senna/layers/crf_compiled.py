"""The 1-best Viterbi on the CPU as one compiled loop (Numba), the way SENNA's C decoded.

Torch's and NumPy's decoders (`crf_viterbi`) pay a fixed cost per operation, a dozen
operations per position, so decoding one short sentence cost hundreds of microseconds
whatever its arithmetic. Here one call decodes every row of a model call: each position's
max-plus step runs previous tag by previous tag over all next tags at once (a loop the
compiler turns into vector operations; a forbidden transition is -inf and never wins),
and the backtrace takes the first maximum in tag order. The sums are the ones `viterbi`
makes, in the same order and precision (start and end scores folded into the emissions
first), and a maximum does not depend on the order it is taken in, so the paths are the
same, ties included.

A constrained tag set (IOBES) forbids most transitions: I-x and E-x follow only B-x or
I-x. The next tags are grouped by the previous tags they may follow (`_groups`), and each
group's step reads only those: for SRL's tags about a quarter of the dense step's sums.
A forbidden transition (-inf) can only lose, so the best scores are the dense step's.
"""

from typing import List, NamedTuple, Sequence, Tuple

import numpy
import torch
from numba import njit
from torch import Tensor


class CompiledTransitions(NamedTuple):
    """A transition matrix (with its start and end scores) laid out for `best_paths`."""

    following: numpy.ndarray  # (C, C): following[j, i] = transitions[i, j]
    start: numpy.ndarray  # (C,)
    end: numpy.ndarray  # (C,) zeros when the CRF has no end scores
    # next tags grouped by the previous tags they may follow (finite transitions): group
    # g's previous tags are previous[previous_at[g]:previous_at[g + 1]], its next tags
    # next_tags[next_at[g]:next_at[g + 1]], its scores (previous x next, row-major)
    # blocks[block_at[g]:block_at[g + 1]]
    previous: numpy.ndarray
    previous_at: numpy.ndarray
    next_tags: numpy.ndarray
    next_at: numpy.ndarray
    blocks: numpy.ndarray
    block_at: numpy.ndarray


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
    return CompiledTransitions(following, start_np, end_np, *_groups(preceding))


def _groups(preceding: numpy.ndarray) -> Tuple[numpy.ndarray, ...]:
    """The group layout of `CompiledTransitions` for a (previous x next) score matrix."""
    allowed = numpy.isfinite(preceding)
    by_previous: dict = {}
    for j in range(preceding.shape[1]):
        by_previous.setdefault(tuple(numpy.flatnonzero(allowed[:, j])), []).append(j)
    previous, next_tags, blocks = [], [], []
    previous_at, next_at, block_at = [0], [0], [0]
    for rows, columns in by_previous.items():
        previous.extend(rows)
        next_tags.extend(columns)
        block = preceding[numpy.ix_(list(rows), columns)].ravel()
        blocks.append(block)
        previous_at.append(len(previous))
        next_at.append(len(next_tags))
        block_at.append(block_at[-1] + block.size)
    return (
        _indices(previous),
        _indices(previous_at),
        _indices(next_tags),
        _indices(next_at),
        numpy.concatenate(blocks).astype(preceding.dtype, copy=False),
        _indices(block_at),
    )


def _indices(values: List[int]) -> numpy.ndarray:
    return numpy.asarray(values, dtype=numpy.int64)


def compiled_decode(
    chunks: Sequence[Tuple[Tensor, Tensor]], compiled: CompiledTransitions
) -> List[Tensor]:
    """The best paths of each (emissions (B, T, C), lengths (B,)) pair on the CPU: per
    pair, its (B, T) int64 paths, -1 past each row's end."""
    out = []
    for emissions, lengths in chunks:
        scores = emissions.detach()
        paths = numpy.full(tuple(scores.shape[:2]), -1, dtype=numpy.int64)
        best_paths(
            numpy.ascontiguousarray(scores.numpy()),
            lengths.numpy().astype(numpy.int64, copy=False),
            compiled.start,
            compiled.end,
            compiled.following,
            compiled.previous,
            compiled.previous_at,
            compiled.next_tags,
            compiled.next_at,
            compiled.blocks,
            compiled.block_at,
            paths,
        )
        out.append(torch.from_numpy(paths))
    return out


@njit(cache=True, nogil=True)
def best_paths(
    emissions,
    lengths,
    start,
    end,
    following,
    previous,
    previous_at,
    next_tags,
    next_at,
    blocks,
    block_at,
    paths,
):
    """Fill `paths` (B, T) with each row's best path (-1 past its end, as given)."""
    n_rows, longest, n_tags = emissions.shape
    delta = numpy.empty((max(longest, 1), n_tags), dtype=emissions.dtype)
    reach = numpy.empty(n_tags, dtype=emissions.dtype)  # best score into each tag
    group_reach = numpy.empty(n_tags, dtype=emissions.dtype)
    for b in range(n_rows):
        n = lengths[b]
        if n == 0:
            continue
        for j in range(n_tags):
            score = emissions[b, 0, j] + start[j]
            if n == 1:
                score = score + end[j]
            delta[0, j] = score
        for t in range(1, n):
            for g in range(len(next_at) - 1):
                first, n_next = next_at[g], next_at[g + 1] - next_at[g]
                group_reach[:n_next] = -numpy.inf
                at = block_at[g]
                for a in range(previous_at[g], previous_at[g + 1]):
                    score = delta[t - 1, previous[a]]
                    for q in range(n_next):  # contiguous in q: vector operations
                        value = score + blocks[at + q]
                        if value > group_reach[q]:
                            group_reach[q] = value
                    at += n_next
                for q in range(n_next):
                    reach[next_tags[first + q]] = group_reach[q]
            for j in range(n_tags):
                score = emissions[b, t, j]
                if t == n - 1:
                    score = score + end[j]
                delta[t, j] = score + reach[j]
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
