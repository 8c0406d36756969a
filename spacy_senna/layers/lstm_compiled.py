"""An LSTM's recurrence on the CPU as one compiled loop (Numba) per direction, for
inference on a few rows: PyTorch steps through a short sentence with a dozen operations
per step, whose fixed cost dwarfs the arithmetic of one text's rows. Used by the sentence
BiLSTM (`recurrent`) and SRL's first layer (`factored_rows`).

Each row's state is updated from its own previous state only, in a fixed order of sums
(the recurrent product accumulated over the hidden units in order, then the input
gates), so a row's output does not depend on the other rows of its batch. The numbers
differ from PyTorch's cell in rounding only (its sums and its exp run otherwise).
"""

import numpy
import torch
from numba import njit
from torch import Tensor, nn

#: a batch of at most this many rows (one doc's sentences, or its predicates) runs its
#: recurrence compiled; more rows step through PyTorch's cell, whose matrix products win
COMPILED_MAX_ROWS = 16


def runs_compiled(inputs: Tensor, lstm: nn.LSTM, batch_sizes: list) -> bool:
    """Whether `lstm` over these packed inputs runs compiled: inference (no gradient) on
    the CPU in float32, with at most COMPILED_MAX_ROWS rows."""
    return (
        bool(batch_sizes)
        and batch_sizes[0] <= COMPILED_MAX_ROWS
        and not torch.is_grad_enabled()
        and inputs.device.type == "cpu"
        and inputs.dtype == lstm.weight_hh_l0.dtype == torch.float32
    )


def compiled_bidirectional(lstm: nn.LSTM, inputs: Tensor, batch_sizes: list) -> Tensor:
    """A one-layer bidirectional `lstm`'s output over packed `inputs`: the input products
    of both directions in one matrix product, each direction's recurrence compiled.

    *Shape:* inputs ``(N, input)`` packed by `batch_sizes` -> ``(N, 2 * hidden)``
    """
    weights = torch.cat([lstm.weight_ih_l0, lstm.weight_ih_l0_reverse])
    bias = torch.cat([lstm.bias_ih_l0, lstm.bias_ih_l0_reverse])
    gates = nn.functional.linear(inputs, weights, bias)
    return both_directions(compiled_direction, lstm, gates, batch_sizes)


def both_directions(direction, lstm: nn.LSTM, gates: Tensor, batch_sizes: list) -> Tensor:
    """`direction` (compiled or PyTorch's cell) run forward over the first half of the
    packed input `gates` and backward over the second, with `lstm`'s recurrent weights.

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


def compiled_direction(
    input_gates: Tensor, batch_sizes: list, weight_hh: Tensor, bias_hh: Tensor, reverse: bool
) -> Tensor:
    """`factored_rows.lstm_direction`'s result, computed in one compiled call.

    *Shape:* input_gates ``(N, 4 * hidden)`` packed by `batch_sizes` -> ``(N, hidden)``
    """
    sizes = numpy.asarray(batch_sizes, dtype=numpy.int64)
    offsets = numpy.concatenate([[0], numpy.cumsum(sizes)]).astype(numpy.int64)
    hidden = weight_hh.shape[1]
    out = numpy.empty((input_gates.shape[0], hidden), dtype=numpy.float32)
    recurrence(
        numpy.ascontiguousarray(input_gates.detach().numpy(), dtype=numpy.float32),
        sizes,
        offsets,
        numpy.ascontiguousarray(weight_hh.detach().numpy().T, dtype=numpy.float32),
        numpy.ascontiguousarray(bias_hh.detach().numpy(), dtype=numpy.float32),
        reverse,
        out,
    )
    return torch.from_numpy(out)


@njit(cache=True, nogil=True)
def _sigmoid(x):
    one = numpy.float32(1.0)
    return one / (one + numpy.exp(-x))


@njit(cache=True, nogil=True)
def recurrence(input_gates, sizes, offsets, weight_hh_t, bias_hh, reverse, out):
    """Fill `out` with the states of the packed rows (`sizes` rows at each step, starting
    at `offsets`), the last step first when `reverse`; every row starts from zeros."""
    hidden = weight_hh_t.shape[0]
    width = weight_hh_t.shape[1]
    rows = sizes[0] if len(sizes) else 0
    h = numpy.zeros((rows, hidden), dtype=numpy.float32)
    c = numpy.zeros((rows, hidden), dtype=numpy.float32)
    gates = numpy.empty(width, dtype=numpy.float32)
    n_steps = len(sizes)
    for s in range(n_steps):
        step = n_steps - 1 - s if reverse else s
        start = offsets[step]
        for r in range(sizes[step]):
            for g in range(width):
                gates[g] = bias_hh[g]
            for k in range(hidden):
                state = h[r, k]
                for g in range(width):
                    gates[g] += weight_hh_t[k, g] * state
            for g in range(width):
                gates[g] += input_gates[start + r, g]
            for k in range(hidden):
                cell = _sigmoid(gates[hidden + k]) * c[r, k] + _sigmoid(gates[k]) * numpy.tanh(
                    gates[2 * hidden + k]
                )
                c[r, k] = cell
                h[r, k] = _sigmoid(gates[3 * hidden + k]) * numpy.tanh(cell)
                out[start + r, k] = h[r, k]
