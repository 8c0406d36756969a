"""The CRF's partition function (log Z) over batched, variable-length sequences.

Speed: a scaled forward recursion in probability space (one (B, C) x (C, C) matmul per
step, no per-step exp/log) with a hand-written forward-backward gradient, and an exact
log-space recursion for the rare batches where scaling underflows (e.g. hard constraints
combined with huge emissions).
"""

from typing import Tuple

import torch
from torch import Tensor

NEG_INF = float("-inf")


def lengths_mask(lengths: Tensor, max_len: int) -> Tensor:
    """(B, T) bool mask, True on real positions."""
    return torch.arange(max_len, device=lengths.device)[None, :] < lengths[:, None]


class _ScaledForward(torch.autograd.Function):
    """log Z of a chain with scores already folded into emissions (start/end included)."""

    @staticmethod
    def forward(ctx, emissions: Tensor, transitions: Tensor, lengths: Tensor) -> Tensor:
        B, T, C = emissions.shape
        mask = lengths_mask(lengths, T)
        em_max = emissions.amax(dim=2, keepdim=True).clamp_min(torch.finfo(emissions.dtype).min)
        ex = torch.exp(emissions - em_max)  # (B, T, C), max entry 1 per position
        tr_max = transitions.max().clamp_min(torch.finfo(transitions.dtype).min)
        ex_tr = torch.exp(transitions - tr_max)
        alpha = torch.empty_like(ex)
        scale = torch.ones(B, T, dtype=ex.dtype, device=ex.device)
        a = ex[:, 0]
        s = a.sum(1, keepdim=True)
        a = a / s
        alpha[:, 0] = a
        scale[:, 0] = s.squeeze(1)
        for t in range(1, T):
            q = (a @ ex_tr) * ex[:, t]
            s = q.sum(1, keepdim=True)
            live = mask[:, t : t + 1]
            a = torch.where(live, q / s, a)
            alpha[:, t] = a
            scale[:, t] = torch.where(live, s, torch.ones_like(s)).squeeze(1)
        n_steps = (lengths - 1).clamp_min(0).to(ex.dtype)
        log_z = (
            torch.log(scale).masked_fill(~mask, 0.0).sum(1)
            + (em_max.squeeze(2) * mask).sum(1)
            + n_steps * tr_max
        )
        log_z = log_z.masked_fill(lengths == 0, 0.0)
        ctx.save_for_backward(alpha, scale, ex, ex_tr, lengths)
        return log_z

    @staticmethod
    def backward(ctx, grad_log_z: Tensor):
        alpha, scale, ex, ex_tr, lengths = ctx.saved_tensors
        B, T, C = alpha.shape
        mask = lengths_mask(lengths, T)
        beta = torch.empty_like(alpha)
        ones = torch.ones(B, C, dtype=alpha.dtype, device=alpha.device)
        b = ones
        beta[:, T - 1] = b
        for t in range(T - 2, -1, -1):
            v = ex[:, t + 1] * beta[:, t + 1] / scale[:, t + 1 : t + 2]
            b = torch.where(mask[:, t + 1 : t + 2], v @ ex_tr.T, ones)
            beta[:, t] = b
        gamma = alpha * beta * mask[:, :, None]
        weight = grad_log_z[:, None, None]
        grad_emissions = gamma * weight
        grad_transitions = None
        if ctx.needs_input_grad[1] and T > 1:
            nxt = ex[:, 1:] * beta[:, 1:] / scale[:, 1:, None] * (mask[:, 1:, None] * weight)
            pair = alpha[:, :-1].reshape(-1, C).T @ nxt.reshape(-1, C)
            grad_transitions = ex_tr * pair
        elif ctx.needs_input_grad[1]:
            grad_transitions = torch.zeros_like(ex_tr)
        return grad_emissions, grad_transitions, None


def log_partition_logspace(emissions: Tensor, transitions: Tensor, lengths: Tensor) -> Tensor:
    """Exact log-space forward algorithm (autograd); the fallback of the scaled recursion."""
    B, T, C = emissions.shape
    mask = lengths_mask(lengths, T)
    alpha = emissions[:, 0]
    for t in range(1, T):
        nxt = torch.logsumexp(alpha[:, :, None] + transitions[None], dim=1) + emissions[:, t]
        alpha = torch.where(mask[:, t : t + 1], nxt, alpha)
    log_z = torch.logsumexp(alpha, dim=1)
    return torch.where(lengths == 0, torch.zeros_like(log_z), log_z)


def log_partition(emissions: Tensor, transitions: Tensor, lengths: Tensor) -> Tensor:
    """(B,) log of the summed exp-scores of all paths; start/end must be in `emissions`."""
    if emissions.shape[1] == 0:
        return emissions.new_zeros(emissions.shape[0])
    log_z = _ScaledForward.apply(emissions, transitions, lengths)
    if not bool(torch.isfinite(log_z).all()):
        log_z = log_partition_logspace(emissions, transitions, lengths)
    return log_z


def scaled_forward_backward(
    folded: Tensor, transitions: Tensor, lengths: Tensor
) -> Tuple[Tensor, Tensor, Tensor, Tensor]:
    """Scaled forward-backward of a folded chain, without gradients.

    Returns a (B, T, C), b (B, T, C), the per-position log scale (B, T) and the
    per-position emission max (B, T), such that with a tag sequence fixed on [s, e):
    log P = log a[s, y_s] + sum_{s<i<e} (trans[y_{i-1}, y_i] - max trans + folded[i, y_i]
    - max[i] - log scale[i]) + log b[e - 1, y_{e-1}] (see `CRF.span_log_probs`).
    Rows run longest first and each step touches only the rows still running (a packed
    sequence), so the work is proportional to the real tokens; a and b are 1 and the
    scale 1 past a row's end.
    """
    B, T, C = folded.shape
    order = torch.argsort(lengths, descending=True)
    running = (lengths[order][None, :] > torch.arange(T, device=lengths.device)[:, None]).sum(1)
    running = running.tolist()  # running[t]: rows with a token at position t
    em_max = folded.amax(dim=2, keepdim=True).clamp_min(torch.finfo(folded.dtype).min)
    ex = torch.exp(folded[order] - em_max[order])
    ex_tr = torch.exp(transitions - transitions.max().clamp_min(torch.finfo(folded.dtype).min))
    alpha = torch.ones_like(ex)
    beta = torch.ones_like(ex)
    scale = torch.ones(B, T, dtype=ex.dtype, device=ex.device)
    n = running[0] if T else 0
    a = ex[:n, 0]
    s = a.sum(1, keepdim=True)
    alpha[:n, 0] = a = a / s
    scale[:n, 0] = s.squeeze(1)
    for t in range(1, T):
        n = running[t]
        if n == 0:
            break
        q = (a[:n] @ ex_tr) * ex[:n, t]
        s = q.sum(1, keepdim=True)
        alpha[:n, t] = a = q / s
        scale[:n, t] = s.squeeze(1)
    for t in range(T - 2, -1, -1):
        n = running[t + 1]  # rows that go on past t
        if n:
            v = ex[:n, t + 1] * beta[:n, t + 1] / scale[:n, t + 1 : t + 2]
            beta[:n, t] = v @ ex_tr.T
    unsorted = torch.empty_like(order)
    unsorted[order] = torch.arange(B, device=order.device)
    return alpha[unsorted], beta[unsorted], torch.log(scale[unsorted]), em_max.squeeze(2)
