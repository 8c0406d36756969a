"""The first BiLSTM layer over (sentence, predicate) rows at inference, its input product
factored by what the input is made of.

A row's input at a position is [the word's vector, the predicate's context window, the
distance's embedding] (`predicate_rows.row_inputs`), and the LSTM's first step multiplies
it by its input weights, for every position of every row: most of the SRL network's
time, since a sentence with seven predicates is seven rows. The product splits along the
three parts: the words' part is computed once per word of the batch (shared by every row
of its sentence), the context's once per row, the distance's once per distance and
version of the weights (kept with the split weights, `kept_copies`); one compiled loop
(`summed_gates`) adds the three up for each position. The recurrence then runs as
PyTorch's packed LSTM runs it (`lstm_direction`: the same operations, step by step), so
the layer's output differs from `nn.LSTM`'s only in how those sums round (about 1e-6). A
few rows (one doc labelled at a time) run the recurrence as one compiled loop instead
(`lstm_compiled`), which again differs in rounding only.

Inference on a CPU only: training goes through `nn.LSTM` itself (its gradients, its
speed), and so does a GPU, where cuDNN runs the whole recurrence in one call and a step
loop in Python would launch a dozen kernels per step.
"""

from functools import partial
from typing import List, Tuple

import numpy
import torch
from torch import Tensor, nn

from ..runtime.compiled import njit
from . import lstm_compiled
from .kept_copies import kept_copy
from .lstm_compiled import both_directions, compiled_both_directions, compiles


def factored_first_layer(
    words: Tensor,
    token_rows: Tensor,
    row_predicate: Tensor,
    half_window: int,
    distance: nn.Embedding,
    lstm: nn.LSTM,
    packed_cells: Tensor,
    batch_sizes: Tensor,
) -> Tensor:
    """The bidirectional `lstm`'s output for the packed positions `packed_cells` of the
    rows, as `lstm(PackedSequence(row_inputs(...)[packed_cells], batch_sizes))` gives it.

    *Shape:* words ``(n_rows, width)``, token_rows ``(R, T)``, row_predicate ``(R,)``,
    packed_cells ``(N,)`` (indices into R x T) -> ``(N, 2 * hidden)``
    """
    width = words.shape[1]
    window = 2 * half_window + 1
    word_weights, context_weights, bias, by_distance = kept_copy(
        f"factored input products, {width} x {window}",
        partial(_factored_parts, width=width, window=window),
        lstm.weight_ih_l0,
        lstm.weight_ih_l0_reverse,
        lstm.bias_ih_l0,
        lstm.bias_ih_l0_reverse,
        distance.weight,
    )
    by_word = nn.functional.linear(words, word_weights)
    centre = token_rows.gather(1, row_predicate[:, None])
    around = torch.arange(-half_window, half_window + 1, device=words.device)
    context = words[centre + around[None]].reshape(len(token_rows), -1)
    by_row = nn.functional.linear(context, context_weights, bias)
    by_word, by_row = by_word.detach().numpy(), by_row.detach().numpy()
    gates = numpy.empty((len(packed_cells), by_word.shape[1]), dtype=by_word.dtype)
    summed_gates(
        by_word,
        by_row,
        by_distance.numpy(),
        token_rows.reshape(-1).numpy(),
        token_rows.shape[1],
        packed_cells.numpy(),
        row_predicate.numpy(),
        (distance.num_embeddings - 1) // 2,
        gates,
    )
    gates = torch.from_numpy(gates)
    sizes = batch_sizes.tolist()
    if (
        sizes
        and compiles(
            sizes[0], lstm.hidden_size, lstm_compiled.STEP_LOOP_MAX_CELLS, sizes[0] != sizes[-1]
        )
        and gates.dtype == torch.float32
    ):
        return compiled_both_directions(lstm, gates, sizes)
    return both_directions(lstm_direction, lstm, gates, sizes)


@njit(cache=True, nogil=True)
def summed_gates(
    by_word, by_row, by_distance, word_of_cell, n_positions, cells, row_predicate, m, out
):
    """out[n] = by_word[its word] + by_row[its row] + by_distance[its distance to the row's
    predicate, clipped to +-m] (summed in that order) for each packed cell n of the rows
    (an index into rows x n_positions): one loop instead of three gathers and two sums of
    small tensors."""
    for n in range(len(cells)):
        row = cells[n] // n_positions
        offset = cells[n] % n_positions - row_predicate[row]
        clipped = min(max(offset, -m), m) + m
        word = word_of_cell[cells[n]]
        for g in range(out.shape[1]):
            out[n, g] = by_word[word, g] + by_row[row, g] + by_distance[clipped, g]


def _factored_parts(
    forward: Tensor,
    backward: Tensor,
    forward_bias: Tensor,
    backward_bias: Tensor,
    distances: Tensor,
    width: int,
    window: int,
) -> Tuple[Tensor, Tensor, Tensor, Tensor]:
    """Both directions' input weights split by the part of the input they read (the
    word's, the context window's, the distance's; each contiguous), their bias, and the
    distance part's product with every distance embedding (fixed per weights version)."""
    weights = torch.cat([forward, backward])  # (8H, input)
    words_end = width * (1 + window)
    return (
        weights[:, :width].contiguous(),
        weights[:, width:words_end].contiguous(),
        torch.cat([forward_bias, backward_bias]),
        nn.functional.linear(distances, weights[:, words_end:]),
    )


def lstm_direction(
    input_gates: Tensor, batch_sizes: List[int], weight_hh: Tensor, bias_hh: Tensor, reverse: bool
) -> Tensor:
    """One direction of an LSTM over packed data whose input products (with their bias)
    are `input_gates`: PyTorch's CPU LSTM cell, step by step (the last step first when
    `reverse`, each sequence starting from zeros where it starts).

    *Shape:* input_gates ``(N, 4 * hidden)`` -> ``(N, hidden)``
    """
    hidden = weight_hh.shape[1]
    offsets = [0]
    for size in batch_sizes:
        offsets.append(offsets[-1] + size)
    out = input_gates.new_empty(input_gates.shape[0], hidden)
    h = input_gates.new_zeros(batch_sizes[0], hidden) if batch_sizes else None
    c = torch.zeros_like(h) if h is not None else None
    steps = range(len(batch_sizes) - 1, -1, -1) if reverse else range(len(batch_sizes))
    for step in steps:
        size, start = batch_sizes[step], offsets[step]
        gates = nn.functional.linear(h[:size], weight_hh, bias_hh)
        gates.add_(input_gates[start : start + size])
        ingate, forgetgate, cellgate, outgate = gates.unsafe_chunk(4, 1)
        ingate.sigmoid_()
        forgetgate.sigmoid_()
        cellgate.tanh_()
        outgate.sigmoid_()
        cy = forgetgate.mul(c[:size]).add_(ingate.mul(cellgate))
        hy = outgate.mul(cy.tanh())
        out[start : start + size] = hy
        if reverse:
            h[:size], c[:size] = hy, cy
        else:
            h, c = hy, cy
    return out
