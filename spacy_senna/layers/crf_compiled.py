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
"""

from typing import List, NamedTuple, Sequence, Tuple

import numpy
import torch
from numba import njit
from torch import Tensor


class CompiledTransitions(NamedTuple):
    """A transition matrix (with its start and end scores) laid out for `best_paths`."""

    preceding: numpy.ndarray  # (C, C): preceding[i, j] = transitions[i, j], previous x next
    following: numpy.ndarray  # (C, C): following[j, i] = transitions[i, j]
    start: numpy.ndarray  # (C,)
    end: numpy.ndarray  # (C,) zeros when the CRF has no end scores


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
    return CompiledTransitions(preceding, following, start_np, end_np)


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
            compiled.preceding,
            compiled.following,
            paths,
        )
        out.append(torch.from_numpy(paths))
    return out


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
        for j in range(n_tags):
            score = emissions[b, 0, j] + start[j]
            if n == 1:
                score = score + end[j]
            delta[0, j] = score
        for t in range(1, n):
            reach[:] = -numpy.inf
            for i in range(n_tags):
                previous = delta[t - 1, i]
                for j in range(n_tags):  # contiguous in j: vector operations
                    value = previous + preceding[i, j]
                    if value > reach[j]:
                        reach[j] = value
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
