"""Decoding a CRF: the best path (Viterbi, over packed rows) and the k best paths of each
sequence."""

from typing import Tuple

import numpy
import torch
from torch import Tensor

from .crf_partition import NEG_INF, lengths_mask
from .packed_chains import PackedChains
from .transition_blocks import TransitionBlocks

#: a Viterbi on the CPU whose first max-plus step sums at most this many floats (rows x
#: `TransitionBlocks.row_floats`) runs in NumPy (`small_viterbi`): one doc at a time
SMALL_VITERBI_FLOATS = 1 << 16


def viterbi(
    packed: PackedChains, blocks: TransitionBlocks, transitions: Tensor
) -> Tuple[Tensor, Tensor]:
    """1-best Viterbi over packed rows: the best paths (B, T) in the rows' given order,
    -1 past each row's end, and their scores (B,).

    `packed.data` holds the folded scores (start and end included) in `blocks` order and
    is overwritten with the running maxima. The forward pass keeps only max values (a
    max-with-indices is several times slower) with `blocks`' pruned max-plus steps; the
    backtrace recovers each argmax from the stored maxima in the original tag order, with
    `transitions` (C, C) as `blocks` holds them, so ties break as a dense decoder's do.
    A small problem on the CPU goes to `small_viterbi`, which gives the same paths and
    scores.
    """
    if (
        packed.batch_sizes
        and packed.data.device.type == "cpu"
        and packed.data.dtype in (torch.float32, torch.float64)
        and packed.batch_sizes[0] * blocks.row_floats <= SMALL_VITERBI_FLOATS
    ):
        return small_viterbi(packed, blocks, transitions)
    deltas = packed.data
    sizes = packed.batch_sizes
    T = len(sizes)
    for t in range(1, T):
        n = sizes[t]
        deltas[packed.step(t)] += blocks.max_plus(deltas[packed.step(t - 1, n)])
    deltas = blocks.restore(deltas)
    last = packed.last_positions()
    score, tag = deltas[last].max(dim=1) if len(last) else (deltas.new_zeros(0), last)
    tags = torch.empty(len(last), T, dtype=torch.long, device=deltas.device)
    trans_t = transitions.T.contiguous()
    for t in range(T - 1, -1, -1):
        n = sizes[t + 1] if t + 1 < T else 0  # rows that go on past t: follow their pointer
        if n:
            tag[:n] = (deltas[packed.step(t, n)] + trans_t[tag[:n]]).argmax(dim=1)
        tags[:, t] = tag
    scores = deltas.new_zeros(packed.n_rows)
    scores[packed.order[: len(last)]] = score
    return packed.unpack(tags), scores


def small_viterbi(
    packed: PackedChains, blocks: TransitionBlocks, transitions: Tensor
) -> Tuple[Tensor, Tensor]:
    """`viterbi` of a few short rows, in NumPy: the same sums and maxima
    (`TransitionBlocks.max_plus_numpy`) and the same first-maximum argmax, without the
    dozen torch operations a step costs there, which dominate when one doc is labelled at
    a time (about 2.5x faster per decode)."""
    deltas = packed.data.numpy()  # blocks' order, overwritten with the running maxima
    sizes, offsets = packed.batch_sizes, packed.offsets
    T = len(sizes)
    for t in range(1, T):
        n, at, before = sizes[t], offsets[t], offsets[t - 1]
        deltas[at : at + n] += blocks.max_plus_numpy(deltas[before : before + n])
    deltas = deltas[:, blocks.inverse.numpy()]  # the original tag order
    following = transitions.T.contiguous().numpy()  # (next, previous)
    last = packed.last_positions().numpy()
    tag = deltas[last].argmax(axis=1)
    score = deltas[last, tag]
    tags = numpy.empty((len(last), T), dtype=numpy.int64)
    for t in range(T - 1, -1, -1):
        n = sizes[t + 1] if t + 1 < T else 0  # rows that go on past t: follow their pointer
        if n:
            tag[:n] = (deltas[offsets[t] : offsets[t] + n] + following[tag[:n]]).argmax(axis=1)
        tags[:, t] = tag
    scores = packed.data.new_zeros(packed.n_rows)
    scores[packed.order[: len(last)]] = torch.from_numpy(score)
    return packed.unpack(torch.from_numpy(tags)), scores


def kbest_viterbi(
    emissions: Tensor, transitions: Tensor, lengths: Tensor, k: int
) -> Tuple[Tensor, Tensor]:
    """k-best list Viterbi: keep the top k partial paths per (position, tag)."""
    B, T, C = emissions.shape
    device = emissions.device
    paths = torch.full((B, k, T), -1, dtype=torch.long, device=device)
    if T == 0:
        scores = emissions.new_full((B, k), NEG_INF)
        scores[:, 0] = 0.0
        return paths, scores
    mask = lengths_mask(lengths, T)
    delta = emissions.new_full((B, C, k), NEG_INF)
    delta[:, :, 0] = emissions[:, 0]
    # backpointers into the flattened (previous tag, previous rank) grid
    backptr = torch.zeros(B, T, k, C, dtype=torch.long, device=device)
    for t in range(1, T):
        cand = delta[:, :, :, None] + transitions[None, :, None, :]  # (B, C, k, C)
        best, idx = cand.reshape(B, C * k, C).topk(k, dim=1)  # (B, k, C)
        backptr[:, t] = idx
        new = best.transpose(1, 2) + emissions[:, t, :, None]  # (B, C, k)
        delta = torch.where(mask[:, t, None, None], new, delta)
    scores, flat = delta.reshape(B, C * k).topk(k, dim=1)  # (B, k)
    tag, rank = flat // k, flat % k
    last = lengths - 1
    for t in range(T - 1, -1, -1):
        if t < T - 1:
            ptr = backptr[:, t + 1].reshape(B, k * C).gather(1, rank * C + tag)
            moving = (t < last)[:, None]
            tag = torch.where(moving, ptr // k, tag)
            rank = torch.where(moving, ptr % k, rank)
        paths[:, :, t] = torch.where(mask[:, t, None], tag, torch.full_like(tag, -1))
    empty = lengths == 0
    scores = torch.where(empty[:, None], torch.full_like(scores, NEG_INF), scores)
    scores[:, 0] = torch.where(empty, torch.zeros_like(scores[:, 0]), scores[:, 0])
    paths = paths.masked_fill(torch.isinf(scores)[:, :, None] & (scores < 0)[:, :, None], -1)
    return paths, scores
