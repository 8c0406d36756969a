"""The scaled forward-backward behind span probabilities, on the CPU as one compiled loop.

`crf_partition.scaled_forward_backward` takes each position of a packed batch as a few
torch operations (a product with the allowed transitions' block, a gather for the narrow
tags, a sum, a division), for the forward and again for the backward pass: a Python step
per position and pass, 1.5 ms for one SRL row of 30 words. Here one call runs both passes
row by row over the same layout (`TransitionBlocks`: the dense block, then each narrow
tag's few previous tags), with the same sums in the same precision; only the order of
each sum's terms differs. Both passes add whole rows of the block (the backward reads it
transposed), so their loops run as vector operations without fast-math: letting the
compiler reorder the backward's dot products instead cost float32 digits (SRL's
probabilities 1.2e-5 from float64's, against 2.6e-6 either way here). `span_emission_sums`
then sums each span's emission terms along it in float64, reading only its own positions."""

from typing import Tuple

import numpy

from ..runtime.compiled import njit

#: NumPy's error model: a division by a vanished sum gives inf or nan, as torch's steps
#: do (the caller then takes the log-space computation), not a Python exception
NUMPY_ERRORS = {"cache": True, "nogil": True, "error_model": "numpy"}


def compiled_forward_backward(
    ex: numpy.ndarray,
    sizes: numpy.ndarray,
    offsets: numpy.ndarray,
    prev_slice: slice,
    n_wide: int,
    exp_block: numpy.ndarray,
    narrow_prev: numpy.ndarray,
    exp_narrow: numpy.ndarray,
) -> Tuple[numpy.ndarray, numpy.ndarray, numpy.ndarray]:
    """(alpha, beta, scale) of packed rows whose exponentiated scores are `ex` (N, C), in
    block order, rows sorted longest first (`sizes[t]` of them reach position t, from
    `offsets[t]`): the recursions of `scaled_forward_backward`."""
    alpha = numpy.empty_like(ex)
    beta = numpy.ones_like(ex)
    scale = numpy.ones(len(ex), dtype=ex.dtype)
    _forward_backward(
        ex,
        sizes,
        offsets,
        prev_slice.start,
        n_wide,
        exp_block,
        numpy.ascontiguousarray(exp_block.T),
        narrow_prev,
        exp_narrow,
        alpha,
        beta,
        scale,
    )
    return alpha, beta, scale


#: a sum's start: float32, so it stays in the scores' precision (float64 scores make it float64)
ZERO = numpy.float32(0.0)


@njit(**NUMPY_ERRORS)
def _forward_backward(
    ex,
    sizes,
    offsets,
    prev_start,
    n_wide,
    exp_block,
    exp_block_t,
    narrow_prev,
    exp_narrow,
    alpha,
    beta,
    scale,
):
    n_tags = ex.shape[1]
    n_prev = exp_block.shape[0]
    q = numpy.empty(n_tags, dtype=ex.dtype)
    v = numpy.empty(n_tags, dtype=ex.dtype)
    acc = numpy.empty(n_prev, dtype=ex.dtype)
    for k in range(sizes[0] if len(sizes) else 0):
        n = 0
        while n < len(sizes) and sizes[n] > k:
            n += 1
        for t in range(n):
            i = offsets[t] + k
            if t == 0:
                for c in range(n_tags):
                    q[c] = ex[i, c]
            else:
                p = offsets[t - 1] + k
                for j in range(n_wide):
                    q[j] = 0.0
                for a in range(n_prev):
                    before = alpha[p, prev_start + a]
                    for j in range(n_wide):  # contiguous in j: vector operations
                        q[j] += before * exp_block[a, j]
                for j in range(n_wide):
                    q[j] *= ex[i, j]
                for r in range(exp_narrow.shape[0]):
                    total = ZERO
                    for w in range(exp_narrow.shape[1]):
                        total += alpha[p, narrow_prev[r, w]] * exp_narrow[r, w]
                    q[n_wide + r] = total * ex[i, n_wide + r]
            s = ZERO
            for c in range(n_tags):
                s += q[c]
            scale[i] = s
            for c in range(n_tags):
                alpha[i, c] = q[c] / s
        for t in range(n - 2, -1, -1):
            i = offsets[t] + k
            after = offsets[t + 1] + k
            for c in range(n_tags):
                v[c] = ex[after, c] * beta[after, c] / scale[after]
                beta[i, c] = 0.0
            for a in range(n_prev):
                acc[a] = 0.0
            for j in range(n_wide):
                after_j = v[j]
                for a in range(n_prev):  # contiguous in a: vector operations
                    acc[a] += exp_block_t[j, a] * after_j
            for a in range(n_prev):
                beta[i, prev_start + a] = acc[a]
            for r in range(exp_narrow.shape[0]):
                for w in range(exp_narrow.shape[1]):
                    beta[i, narrow_prev[r, w]] += exp_narrow[r, w] * v[n_wide + r]


@njit(cache=True, nogil=True)
def span_emission_sums(data, em_max, log_scale, offsets, rows, starts, ends, inside, last, out):
    """out[n]: span n's emission terms after its first position, summed along it: h[i,
    inside[n]] for its inside positions i, then h[end - 1, last[n]] (0 for a one-token
    span), where h[i, c] = data[i, c] - em_max[i] - log_scale[i] and position t of sorted
    row `rows[n]` is packed at offsets[t] + rows[n]."""
    for n in range(len(rows)):
        total = 0.0
        if ends[n] - starts[n] > 1:
            for t in range(starts[n] + 1, ends[n] - 1):
                i = offsets[t] + rows[n]
                total += data[i, inside[n]] - em_max[i] - log_scale[i]
            i = offsets[ends[n] - 1] + rows[n]
            total += data[i, last[n]] - em_max[i] - log_scale[i]
        out[n] = total
