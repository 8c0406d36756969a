"""The CRF's partition function (log Z) over batched, variable-length sequences.

Speed: a scaled forward recursion in probability space (one (B, C) x (C, C) matmul per
step, no per-step exp/log) with a hand-written forward-backward gradient, and an exact
log-space recursion for the rare batches where scaling underflows (e.g. hard constraints
combined with huge emissions).
"""

from typing import Tuple

import numpy
import torch
from torch import Tensor

from .forward_backward_compiled import compiled_forward_backward
from .forward_backward_compiled import span_emission_sums as compiled_emission_sums
from .packed_chains import PackedChains
from .transition_blocks import TransitionBlocks

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
    packed: PackedChains,
    blocks: TransitionBlocks,
    transitions: Tensor,
) -> Tuple[Tensor, Tensor, Tensor, Tensor]:
    """Scaled forward-backward of packed rows of folded scores (in `blocks` order, start
    and end included), without gradients, at the cost of the allowed transitions only,
    in the scores' dtype (labelling packs float32 emissions as float32).

    Returns a (N, C), b (N, C), the per-position log scale (N,) and emission max (N,),
    packed as the rows are, such that with a tag sequence fixed on [s, e) of a row:
    log P = log a[s, y_s] + sum_{s<i<e} (trans[y_{i-1}, y_i] - max trans + folded[i, y_i]
    - max[i] - log scale[i]) + log b[e - 1, y_{e-1}] (see `CRF.span_log_probs`). Each
    step touches only the rows still running; b is 1 at a row's last position.
    """
    data = packed.data
    shift = transitions.max().clamp_min(torch.finfo(data.dtype).min)
    exp_block, exp_narrow = blocks.exponentiated(shift, data.dtype)
    em_max = data.amax(dim=1).clamp_min(torch.finfo(data.dtype).min)
    ex = torch.exp(data - em_max[:, None])
    if _runs_compiled(ex):
        alpha, beta, scale = (
            torch.from_numpy(a)
            for a in compiled_forward_backward(
                ex.numpy(),
                numpy.asarray(packed.batch_sizes, dtype=numpy.int64),
                numpy.asarray(packed.offsets, dtype=numpy.int64),
                blocks.prev_slice,
                blocks.n_wide,
                exp_block.numpy(),
                blocks.narrow_prev.numpy(),
                exp_narrow.numpy(),
            )
        )
        return alpha, beta, torch.log(scale), em_max
    alpha = torch.empty_like(ex)
    beta = torch.ones_like(ex)
    scale = torch.ones_like(em_max)
    sizes = packed.batch_sizes
    for t in range(len(sizes)):
        here = packed.step(t)
        q = ex[here]
        if t:
            q = blocks.sum_product(alpha[packed.step(t - 1, sizes[t])], exp_block, exp_narrow) * q
        s = q.sum(1)
        alpha[here] = q / s[:, None]
        scale[here] = s
    for t in range(len(sizes) - 2, -1, -1):
        n = sizes[t + 1]  # rows that go on past t
        after = packed.step(t + 1)
        v = ex[after] * beta[after] / scale[after, None]
        beta[packed.step(t, n)] = blocks.sum_product_back(v, exp_block, exp_narrow)
    return alpha, beta, torch.log(scale), em_max


def span_emission_sums(
    packed: PackedChains,
    em_max: Tensor,
    log_scale: Tensor,
    rows: Tensor,
    starts: Tensor,
    ends: Tensor,
    inside: Tensor,
    last: Tensor,
) -> Tensor:
    """(N,) float64: the emission terms of N spans after their first position (see
    `scaled_forward_backward`): h[i, inside] over each span's inside positions, then h[end
    - 1, last] (0 for a one-token span), h[i, c] = data[i, c] - em_max[i] - log_scale[i];
    span n lies on sorted row rows[n], its tags in block order. Only a span's first and
    last positions can be -inf (start and end constraints)."""
    if _runs_compiled(packed.data):
        out = numpy.empty(len(rows), dtype=numpy.float64)
        compiled_emission_sums(
            packed.data.numpy(),
            em_max.double().numpy(),
            log_scale.double().numpy(),
            numpy.asarray(packed.offsets, dtype=numpy.int64),
            rows.numpy(),
            starts.numpy(),
            ends.numpy(),
            inside.numpy(),
            last.numpy(),
            out,
        )
        return torch.from_numpy(out)
    offsets = torch.tensor(packed.offsets, dtype=torch.long, device=rows.device)

    def at(positions: Tensor) -> Tensor:
        return offsets[positions.clamp_min(0)] + rows

    h = packed.data.double() - em_max.double()[:, None] - log_scale.double()[:, None]
    h_last = h[at(ends - 1), last]
    # the inside positions of a span are never -inf: a running sum along each row that
    # skips infinities gives their sum as a difference
    g = h.masked_fill_(torch.isinf(h), 0.0)
    for t in range(1, len(packed.batch_sizes)):
        g[packed.step(t)] += g[packed.step(t - 1, packed.batch_sizes[t])]
    length = ends - starts
    inner = torch.where(length > 2, g[at(ends - 2), inside] - g[at(starts), inside], 0.0)
    return torch.where(length == 1, 0.0, inner + h_last)


def _runs_compiled(values: Tensor) -> bool:
    """Whether the compiled loops take these packed values (`forward_backward_compiled`:
    on the CPU, float32 or float64, laid out contiguously); a GPU keeps torch's steps."""
    return (
        values.device.type == "cpu"
        and values.dtype in (torch.float32, torch.float64)
        and values.is_contiguous()
    )
