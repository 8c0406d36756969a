"""The part of an SRL network that runs once per (sentence, predicate) row, shared by the
predicate BiLSTM and the predicate heads: each word's vector with the predicate's context
window and an embedding of the word's distance to the predicate (`row_inputs`), through
BiLSTM layers over the row's real positions, packed, then (HardTanh ->) tag scores
(`row_scores`). Its BiLSTM layers and packed scoring (`row_lstms`, `packed_row_scores`)
also serve the parser's level heads."""

from typing import Optional, Sequence, Tuple

import torch
from torch import Tensor, nn
from torch.nn.utils.rnn import PackedSequence

from .factored_rows import factored_first_layer
from .lstm_compiled import compiled_bidirectional, runs_compiled
from .precision import dense
from .recurrent import packed_order, start_forget_gates_open


def row_lstms(width: int, lstm_width: int, depth: int) -> Tuple[nn.ModuleList, int]:
    """`depth` BiLSTM layers reading `width` numbers (forget gates open) and their output
    width."""
    layers = nn.ModuleList()
    for _ in range(depth):
        lstm = nn.LSTM(width, lstm_width, batch_first=True, bidirectional=True)
        start_forget_gates_open(lstm)
        layers.append(lstm)
        width = 2 * lstm_width
    return layers, width


def distance_table(max_distance: int, width: int) -> nn.Embedding:
    """The distance-to-predicate lookup table, -max_distance .. max_distance."""
    table = nn.Embedding(2 * max_distance + 1, width)
    nn.init.uniform_(table.weight, -1.0, 1.0)
    return table


def row_inputs(
    words: Tensor,
    token_rows: Tensor,
    row_predicate: Tensor,
    half_window: int,
    distance: nn.Embedding,
) -> Tensor:
    """(R, T, width * (1 + window) + distance width): each position's word vector, its
    row's predicate context (`half_window` words each side) and its distance.

    *Shape:* words ``(n_rows, width)`` (sentences end to end, at least `half_window`
    padding rows around each), token_rows ``(R, T)`` (each position's row of `words`),
    row_predicate ``(R,)``
    """
    R, T = token_rows.shape
    centre = token_rows.gather(1, row_predicate[:, None])  # (R, 1)
    around = torch.arange(-half_window, half_window + 1, device=words.device)
    context = words[centre + around[None]].reshape(R, 1, -1).expand(R, T, -1)
    positions = torch.arange(T, device=words.device)
    m = (distance.num_embeddings - 1) // 2
    clipped = (positions[None] - row_predicate[:, None]).clamp(-m, m) + m
    return torch.cat([words[token_rows], context, distance(clipped)], dim=2)


def row_scores(
    words: Tensor,
    token_rows: Tensor,
    row_predicate: Tensor,
    row_lengths: Tensor,
    half_window: int,
    distance: nn.Embedding,
    lstms: nn.ModuleList,
    dropout: nn.Dropout,
    hidden: Optional[nn.Linear],
    output: nn.Linear,
) -> Tensor:
    """(R, T, n_tags) scores of the rows whose inputs `row_inputs` makes: the LSTMs read
    each row's real positions packed (one gather, no padded copies); padding positions
    score 0. At inference on a CPU the first layer's input product is factored
    (`factored_rows`).

    *Shape:* as `row_inputs`, and row_lengths ``(R,)``
    """
    R, T = token_rows.shape
    cells = torch.arange(R * T, device=words.device).reshape(R, T)
    packed_cells, batch_sizes = packed_order(cells, row_lengths.cpu())
    first, *rest = lstms
    if output.training or words.device.type != "cpu":  # a GPU runs cuDNN's fused LSTM
        inputs = row_inputs(words, token_rows, row_predicate, half_window, distance)
        out = inputs.reshape(R * T, -1)[packed_cells]
        out = first(PackedSequence(dropout(out), batch_sizes))[0].data
    else:
        out = factored_first_layer(
            words,
            token_rows,
            row_predicate,
            half_window,
            distance,
            first,
            packed_cells,
            batch_sizes,
        )
    return packed_row_scores(out, packed_cells, batch_sizes, (R, T), rest, dropout, hidden, output)


def packed_row_scores(
    out: Tensor,
    packed_cells: Tensor,
    batch_sizes: Tensor,
    shape: Tuple[int, int],
    lstms: Sequence[nn.LSTM],
    dropout: nn.Dropout,
    hidden: Optional[nn.Linear],
    output: nn.Linear,
    inference_dtype: str = "float32",
) -> Tensor:
    """(R, T, n_tags) scores of rows whose packed positions `packed_cells` (indices into
    `shape` = R x T) hold `out`: through `lstms` (packed by `batch_sizes`; a few rows at
    inference on the CPU with their recurrence compiled, `lstm_compiled`), (HardTanh ->)
    the output layer, those two in `inference_dtype` when labelling (`precision.dense`);
    padding positions score 0."""
    sizes = batch_sizes.tolist()
    # labelling skips the dropout modules (identities then): three module calls a call
    drop = dropout if dropout.training else _identity
    for lstm in lstms:
        out = drop(out)
        if runs_compiled(out, lstm, sizes):
            out = compiled_bidirectional(lstm, out, sizes)
        else:
            out = lstm(PackedSequence(out, batch_sizes))[0].data
    out = drop(out)
    if hidden is not None:
        out = drop(dense(hidden, out, inference_dtype, hardtanh=True))
    scores = dense(output, out, inference_dtype)
    R, T = shape
    grid = scores.new_zeros(R * T, output.out_features).index_put((packed_cells,), scores)
    return grid.reshape(R, T, output.out_features)


def _identity(x: Tensor) -> Tensor:
    return x
