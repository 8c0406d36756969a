"""An LSTM's recurrence on the CPU as one compiled loop (Numba) per direction, for
inference on a few rows: PyTorch steps through a short sentence with a dozen operations
per step, whose fixed cost dwarfs the arithmetic of one text's rows. Used by the sentence
BiLSTM (`recurrent`) and SRL's first layer (`factored_rows`).

Each row's state is updated from its own previous state only, by the same operations
whatever the other rows (the recurrent product accumulated over the hidden units in
order, then the input gates), so a row's output does not depend on the other rows of its
batch. The numbers differ from PyTorch's cell in rounding only (its sums run otherwise,
and exp and tanh are Cephes' float32 functions here, as accurate as libm's).
"""

from typing import Optional, Tuple

import numpy
import torch
from torch import Tensor, nn

from ..runtime.compiled import njit
from .kept_copies import kept_copy

#: a batch whose rows (one doc's sentences, or its predicates) times the hidden width stay
#: within this runs its recurrence compiled; more step through PyTorch's LSTM, whose matrix
#: products win there (25 steps, one core: 100 units each way break even at 8 rows, 50 at
#: about 20)
COMPILED_MAX_CELLS = 800
#: the same bound where the alternative is PyTorch's cell step by step (`both_directions`
#: with `factored_rows.lstm_direction`, SRL's first layer), a dozen operations a step:
#: 100 units each way, 25 steps, one core: the compiled recurrence wins up to 12 rows of
#: one length (1.60 against 1.73 ms) and 16 of mixed lengths (1.93 against 2.41 ms);
#: `benchmarks/speed/recurrence_bounds.py` times both bounds
STEP_LOOP_MAX_CELLS = 1200
#: the bound for rows of different lengths (the predicates of a paragraph's sentences,
#: SRL's rows of a text labelled alone), where the compiled recurrence also wins past
#: the bounds above against both alternatives (`recurrence_bounds.py`, 100 units, 28
#: steps, 16 rows of mixed lengths, AMD EPYC: 3.35 ms against 4.06 for the packed LSTM,
#: 2.06 against 3.44 for the step loop, given the gates; Intel Xeon, 25 steps: 1.93
#: against 2.41 for the step loop)
MIXED_MAX_CELLS = 1600


def compiles(rows: int, hidden: int, max_cells: Optional[int] = None, mixed: bool = False) -> bool:
    """Whether `rows` rows of an LSTM `hidden` units wide run the compiled recurrence
    (within `max_cells`, by default `COMPILED_MAX_CELLS`; rows of `mixed` lengths within
    `MIXED_MAX_CELLS` too)."""
    bound = COMPILED_MAX_CELLS if max_cells is None else max_cells
    return rows * hidden <= (max(bound, MIXED_MAX_CELLS) if mixed else bound)


def runs_compiled(inputs: Tensor, lstm: nn.LSTM, batch_sizes: list) -> bool:
    """Whether `lstm` (one bidirectional layer) over these packed inputs runs compiled:
    inference (no gradient) on the CPU in float32, with few rows (`compiles`)."""
    return (
        bool(batch_sizes)
        and lstm.num_layers == 1
        and lstm.bidirectional
        and compiles(batch_sizes[0], lstm.hidden_size, mixed=batch_sizes[0] != batch_sizes[-1])
        and not torch.is_grad_enabled()
        and inputs.device.type == "cpu"
        and inputs.dtype == lstm.weight_hh_l0.dtype == torch.float32
    )


def compiled_bidirectional(lstm: nn.LSTM, inputs: Tensor, batch_sizes: list) -> Tensor:
    """A one-layer bidirectional `lstm`'s output over packed `inputs`: the input products
    of both directions in one matrix product, each direction's recurrence compiled.

    *Shape:* inputs ``(N, input)`` packed by `batch_sizes` -> ``(N, 2 * hidden)``
    """
    gates = nn.functional.linear(inputs, *_input_weights(lstm))
    return compiled_both_directions(lstm, gates, batch_sizes)


def _input_weights(lstm: nn.LSTM) -> Tuple[Tensor, Tensor]:
    """Both directions' input weights and biases, stacked (one matrix product for both)."""
    return kept_copy(
        "stacked",
        _stacked,
        lstm.weight_ih_l0,
        lstm.weight_ih_l0_reverse,
        lstm.bias_ih_l0,
        lstm.bias_ih_l0_reverse,
    )


def _stacked(
    weight: Tensor, weight_reverse: Tensor, bias: Tensor, bias_reverse: Tensor
) -> Tuple[Tensor, Tensor]:
    return torch.cat([weight, weight_reverse]), torch.cat([bias, bias_reverse])


def both_directions(direction, lstm: nn.LSTM, gates: Tensor, batch_sizes: list) -> Tensor:
    """`direction` (PyTorch's cell, `factored_rows.lstm_direction`) run forward over the
    first half of the packed input `gates` and backward over the second, with `lstm`'s
    recurrent weights.

    *Shape:* gates ``(N, 8 * hidden)`` -> ``(N, 2 * hidden)``
    """
    forward, backward = gates.chunk(2, dim=1)
    return torch.cat(
        [
            direction(forward, batch_sizes, lstm.weight_hh_l0, lstm.bias_hh_l0, False),
            direction(
                backward, batch_sizes, lstm.weight_hh_l0_reverse, lstm.bias_hh_l0_reverse, True
            ),
        ],
        dim=1,
    )


def compiled_both_directions(lstm: nn.LSTM, gates: Tensor, batch_sizes: list) -> Tensor:
    """`both_directions(lstm_direction, ...)`'s result, each direction's recurrence one
    compiled call that reads its half of `gates` in place and writes its half of one
    output (no split copies, no join).

    *Shape:* gates ``(N, 8 * hidden)`` packed by `batch_sizes` -> ``(N, 2 * hidden)``
    """
    sizes = numpy.asarray(batch_sizes, dtype=numpy.int64)
    offsets = numpy.zeros(len(sizes) + 1, dtype=numpy.int64)
    numpy.cumsum(sizes, out=offsets[1:])
    hidden = lstm.hidden_size
    inputs = numpy.ascontiguousarray(gates.detach().numpy(), dtype=numpy.float32)
    out = numpy.empty((inputs.shape[0], 2 * hidden), dtype=numpy.float32)
    weights = kept_copy(
        "recurrent arrays",
        _recurrent_arrays,
        lstm.weight_hh_l0,
        lstm.bias_hh_l0,
        lstm.weight_hh_l0_reverse,
        lstm.bias_hh_l0_reverse,
    )
    for weight_hh_t, bias_hh, reverse in weights:
        recurrence(
            inputs,
            sizes,
            offsets,
            weight_hh_t,
            bias_hh,
            reverse,
            4 * hidden if reverse else 0,
            hidden if reverse else 0,
            out,
        )
    return torch.from_numpy(out)


def _recurrent_arrays(
    weight_hh: Tensor, bias_hh: Tensor, weight_hh_reverse: Tensor, bias_hh_reverse: Tensor
) -> tuple:
    """Each direction's (transposed recurrent weights, recurrent biases, reverse) as the
    compiled recurrence reads them."""
    return (
        (_float32_array_t(weight_hh), _float32_array(bias_hh), False),
        (_float32_array_t(weight_hh_reverse), _float32_array(bias_hh_reverse), True),
    )


def _float32_array(tensor: Tensor) -> numpy.ndarray:
    return numpy.ascontiguousarray(tensor.numpy(), dtype=numpy.float32)


def _float32_array_t(tensor: Tensor) -> numpy.ndarray:
    return numpy.ascontiguousarray(tensor.numpy().T, dtype=numpy.float32)


F32 = numpy.float32


@njit(cache=True, nogil=True, fastmath=True)
def _exp_into(values, out, bits, scale, m):
    """out[i] = exp(values[i]) for i < m, as Cephes' expf computes it (x = n ln 2 + r, a
    degree-6 polynomial of r, 2**n written as its float32 bits into `bits`, which `scale`
    views as float32): about libm's accuracy, in loops the compiler runs as vector
    operations (libm's exp runs one number at a time)."""
    for i in range(m):
        x = min(max(values[i], F32(-87.0)), F32(88.0))
        n = numpy.floor(x * F32(1.44269504088896341) + F32(0.5))
        r = x - n * F32(0.693359375) - n * F32(-2.12194440e-4)
        p = F32(1.9875691500e-4)
        p = p * r + F32(1.3981999507e-3)
        p = p * r + F32(8.3334519073e-3)
        p = p * r + F32(4.1665795894e-2)
        p = p * r + F32(1.6666665459e-1)
        p = p * r + F32(5.0000001201e-1)
        out[i] = p * r * r + r + F32(1.0)
        bits[i] = (numpy.int32(n) + numpy.int32(127)) << numpy.int32(23)
    for i in range(m):
        out[i] = out[i] * scale[i]


#: the gates' functions' compiler settings: fast-math but for approximate reciprocals (each
#: division is the exact one), and no Python zero-division check, whose branch kept every
#: division a scalar one; their loops run as vector operations, to the same numbers
EXACT_DIVISIONS = {
    "cache": True,
    "nogil": True,
    "fastmath": {"nnan", "ninf", "nsz", "contract", "afn", "reassoc"},
    "error_model": "numpy",
}


@njit(**EXACT_DIVISIONS)
def _sigmoids(exps, out, low, high):
    """out[g] = 1 / (1 + exps[g]) for low <= g < high: sigmoid(x) where exps[g] = exp(-x)."""
    for g in range(low, high):
        out[g] = F32(1.0) / (F32(1.0) + exps[g])


@njit(**EXACT_DIVISIONS)
def _tanhs(values, exps, out, low, high):
    """out[g] = tanh(values[g]) for low <= g < high, where exps[g] = exp(2 |values[g]|)."""
    for g in range(low, high):
        out[g] = _tanh(values[g], exps[g])


@njit(**EXACT_DIVISIONS, inline="always")
def _tanh(x, exp_twice_abs):
    """tanh(x) given exp(2|x|), as Cephes' tanhf: an odd polynomial below |x| = 0.625,
    sign(x) (1 - 2 / (exp(2|x|) + 1)) above."""
    z = x * x
    p = F32(-5.70498872745e-3)
    p = p * z + F32(2.06390887954e-2)
    p = p * z - F32(5.37397155531e-2)
    p = p * z + F32(1.33314422036e-1)
    p = p * z - F32(3.33332819422e-1)
    large = F32(1.0) - F32(2.0) / (exp_twice_abs + F32(1.0))
    if abs(x) < F32(0.625):
        return p * z * x + x
    return large if x >= 0 else -large


@njit(cache=True, nogil=True, fastmath=True, inline="always")
def _add_recurrent_products(gates, h, weight_hh_t, n):
    """gates[r] += h[r] @ weight_hh_t for the first `n` rows, four weight rows at a time (a
    quarter of the gates' traffic) and two rows of states at a time (each weight read once
    for both); every row's sums run in the same order whatever its neighbours."""
    hidden, width = weight_hh_t.shape
    k = 0
    while k + 4 <= hidden:
        r = 0
        while r + 2 <= n:
            h0, h1, h2, h3 = h[r, k], h[r, k + 1], h[r, k + 2], h[r, k + 3]
            j0, j1, j2, j3 = h[r + 1, k], h[r + 1, k + 1], h[r + 1, k + 2], h[r + 1, k + 3]
            for g in range(width):
                w0, w1 = weight_hh_t[k, g], weight_hh_t[k + 1, g]
                w2, w3 = weight_hh_t[k + 2, g], weight_hh_t[k + 3, g]
                gates[r, g] += w0 * h0 + w1 * h1 + w2 * h2 + w3 * h3
                gates[r + 1, g] += w0 * j0 + w1 * j1 + w2 * j2 + w3 * j3
            r += 2
        if r < n:
            h0, h1, h2, h3 = h[r, k], h[r, k + 1], h[r, k + 2], h[r, k + 3]
            for g in range(width):
                gates[r, g] += (
                    weight_hh_t[k, g] * h0
                    + weight_hh_t[k + 1, g] * h1
                    + weight_hh_t[k + 2, g] * h2
                    + weight_hh_t[k + 3, g] * h3
                )
        k += 4
    while k < hidden:
        for r in range(n):
            state = h[r, k]
            for g in range(width):
                gates[r, g] += weight_hh_t[k, g] * state
        k += 1


@njit(cache=True, nogil=True, fastmath=True)
def recurrence(input_gates, sizes, offsets, weight_hh_t, bias_hh, reverse, gate_at, out_at, out):
    """Fill `out`'s columns from `out_at` with the states of the packed rows (`sizes` rows
    at each step, starting at `offsets`; their input gates in `input_gates`' columns from
    `gate_at`), the last step first when `reverse`; every row starts from zeros.

    Each step adds every row's recurrent product (`_add_recurrent_products`), then applies
    the gates with exp computed in vector loops (`_exp_into`): sigmoid(x) = 1 / (1 +
    exp(-x)), tanh by `_tanh`; one loop per kind of gate, so no loop branches on the gate
    it is in."""
    hidden = weight_hh_t.shape[0]
    width = weight_hh_t.shape[1]
    rows = sizes[0] if len(sizes) else 0
    h = numpy.zeros((rows, hidden), dtype=F32)
    c = numpy.zeros((rows, hidden), dtype=F32)
    gates = numpy.empty((rows, width), dtype=F32)
    arguments = numpy.empty(width, dtype=F32)
    exps = numpy.empty(width, dtype=F32)
    bits = numpy.empty(width, dtype=numpy.int32)
    scale = bits.view(F32)
    cells = numpy.empty(hidden, dtype=F32)  # tanh of each unit's cell
    n_steps = len(sizes)
    for s in range(n_steps):
        step = n_steps - 1 - s if reverse else s
        start = offsets[step]
        n = sizes[step]
        for r in range(n):
            for g in range(width):
                gates[r, g] = bias_hh[g]
        _add_recurrent_products(gates, h, weight_hh_t, n)
        for r in range(n):  # gates: input, forget (sigmoid), cell (tanh), output (sigmoid)
            at = start + r
            for g in range(2 * hidden):
                arguments[g] = -(gates[r, g] + input_gates[at, gate_at + g])
            for g in range(2 * hidden, 3 * hidden):
                x = gates[r, g] + input_gates[at, gate_at + g]
                gates[r, g] = x
                arguments[g] = abs(x) + abs(x)
            for g in range(3 * hidden, width):
                arguments[g] = -(gates[r, g] + input_gates[at, gate_at + g])
            _exp_into(arguments, exps, bits, scale, width)
            row = gates[r]
            _sigmoids(exps, row, 0, 2 * hidden)
            _tanhs(row, exps, row, 2 * hidden, 3 * hidden)
            _sigmoids(exps, row, 3 * hidden, width)
            for k in range(hidden):
                cell = gates[r, hidden + k] * c[r, k] + gates[r, k] * gates[r, 2 * hidden + k]
                c[r, k] = cell
                arguments[k] = abs(cell) + abs(cell)
            _exp_into(arguments, exps, bits, scale, hidden)
            _tanhs(c[r], exps, cells, 0, hidden)
            for k in range(hidden):
                h[r, k] = gates[r, 3 * hidden + k] * cells[k]
                out[start + r, out_at + k] = h[r, k]
