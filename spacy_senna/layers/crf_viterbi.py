"""Decoding a CRF: the best path (Viterbi) and the k best paths of each sequence."""

from typing import Tuple

import torch
from torch import Tensor

from .crf_partition import NEG_INF, lengths_mask
from .sparse_transitions import SparseTransitions


def viterbi(emissions: Tensor, transitions: Tensor, lengths: Tensor) -> Tuple[Tensor, Tensor]:
    """1-best Viterbi with a vectorized backtrace (loop over time only).

    Sequences are sorted longest first, so step t only touches the prefix of the batch
    still running (a packed sequence): work is proportional to the real tokens, not
    batch x longest. The forward pass keeps only max values (a max-with-indices over
    (B, C, C) is several times slower); the backtrace recovers each argmax from the
    stored (B, C) deltas.
    """
    B, T, C = emissions.shape
    paths = torch.full((B, 1, T), -1, dtype=torch.long, device=emissions.device)
    if T == 0:
        return paths, emissions.new_zeros(B, 1)
    order = torch.argsort(lengths, descending=True)
    sorted_lengths = lengths[order]
    active = (sorted_lengths[None, :] > torch.arange(T, device=lengths.device)[:, None]).sum(1)
    active = active.tolist()  # active[t]: sequences with a token at position t
    deltas = emissions[order]
    # (B, next, prev) layout: the max runs over the contiguous last dimension
    trans_t = transitions.T.contiguous()
    plan = SparseTransitions.plan(transitions, torch.isfinite(transitions))
    for t in range(1, T):
        n = active[t]
        if n == 0:
            break
        if plan is not None:
            deltas[:n, t] += plan.max_plus(deltas[:n, t - 1])
        else:
            deltas[:n, t] += (deltas[:n, t - 1, None, :] + trans_t).amax(dim=2)
    last = (sorted_lengths - 1).clamp_min(0)
    score, best_last = deltas[torch.arange(B, device=deltas.device), last].max(dim=1)
    tags = torch.empty(B, T, dtype=torch.long, device=emissions.device)
    tag = best_last.clone()
    tags[:, T - 1] = tag
    for t in range(T - 2, -1, -1):
        n = active[t + 1]  # sequences that continue past t: follow their backpointer
        if n:
            tag[:n] = (deltas[:n, t] + trans_t[tag[:n]]).argmax(dim=1)
        tags[:, t] = tag
    unsorted = torch.empty_like(tags)
    unsorted[order] = tags
    paths[:, 0] = unsorted.masked_fill(~lengths_mask(lengths, T), -1)
    out_score = torch.empty_like(score)
    out_score[order] = score
    out_score = torch.where(lengths == 0, torch.zeros_like(out_score), out_score)
    return paths, out_score[:, None]


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
