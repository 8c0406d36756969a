"""At inference the SRL networks' first BiLSTM layer factors its input product by word, row
and distance (`factored_rows`); its output is `nn.LSTM`'s over the concatenated inputs."""

import pytest
import torch
from torch import nn
from torch.nn.utils.rnn import PackedSequence, pack_padded_sequence

from spacy_senna.layers import factored_rows, lstm_compiled
from spacy_senna.layers.factored_rows import factored_first_layer, lstm_direction
from spacy_senna.layers.lstm_compiled import both_directions, compiled_both_directions
from spacy_senna.layers.predicate_rows import distance_table, row_inputs
from spacy_senna.layers.recurrent import packed_order


def test_the_recurrence_is_pytorchs_packed_lstm_step_for_step():
    torch.manual_seed(0)
    lstm = nn.LSTM(6, 5, bidirectional=True).eval()
    lengths = torch.tensor([7, 7, 4, 2, 1])
    packed = pack_padded_sequence(torch.randn(7, 5, 6), lengths)
    with torch.no_grad():
        expected = lstm(packed)[0].data
        forward = nn.functional.linear(packed.data, lstm.weight_ih_l0, lstm.bias_ih_l0)
        backward = nn.functional.linear(
            packed.data, lstm.weight_ih_l0_reverse, lstm.bias_ih_l0_reverse
        )
        sizes = packed.batch_sizes.tolist()
        states = torch.cat(
            [
                lstm_direction(forward, sizes, lstm.weight_hh_l0, lstm.bias_hh_l0, False),
                lstm_direction(
                    backward, sizes, lstm.weight_hh_l0_reverse, lstm.bias_hh_l0_reverse, True
                ),
            ],
            dim=1,
        )
    assert torch.equal(states, expected)


@pytest.mark.parametrize("half_window", [0, 1, 2])
def test_the_factored_layer_gives_the_lstms_output_on_the_rows_inputs(half_window):
    torch.manual_seed(0)
    width, max_distance = 4, 3
    words = torch.randn(12, width)  # two sentences end to end, padding rows around
    token_rows = torch.tensor([[2, 3, 4, 5, 6], [2, 3, 4, 5, 6], [8, 9, 10, 0, 0]])
    row_predicate = torch.tensor([0, 4, 1])
    lengths = torch.tensor([5, 5, 3])
    distance = distance_table(max_distance, 2)
    lstm = nn.LSTM(width * (2 + 2 * half_window) + 2, 3, bidirectional=True).eval()
    R, T = token_rows.shape
    cells, batch_sizes = packed_order(torch.arange(R * T).reshape(R, T), lengths)
    with torch.no_grad():
        inputs = row_inputs(words, token_rows, row_predicate, half_window, distance)
        expected = lstm(PackedSequence(inputs.reshape(R * T, -1)[cells], batch_sizes))[0].data
        factored = factored_first_layer(
            words, token_rows, row_predicate, half_window, distance, lstm, cells, batch_sizes
        )
    torch.testing.assert_close(factored, expected, atol=1e-6, rtol=1e-5)


def test_the_compiled_recurrence_computes_the_torch_cell_steps():
    torch.manual_seed(0)
    hidden = 7
    lstm = nn.LSTM(3, hidden, bidirectional=True)
    sizes = [3, 3, 2, 2, 1]  # packed rows of lengths 5, 4 and 2
    gates = torch.randn(sum(sizes), 8 * hidden)
    with torch.no_grad():
        compiled = compiled_both_directions(lstm, gates, sizes)
        stepped = both_directions(lstm_direction, lstm, gates, sizes)
    assert compiled.shape == (sum(sizes), 2 * hidden)
    assert torch.allclose(compiled, stepped, atol=1e-5)
    # a row's states do not depend on the other rows of its batch
    alone = compiled_both_directions(lstm, gates[[0, 3, 6, 8, 10]], [1] * 5)
    assert torch.equal(alone, compiled[[0, 3, 6, 8, 10]])


def _first_layer_runs_compiled(monkeypatch, hidden: int, lengths: list) -> bool:
    """Whether the factored first layer over rows of these lengths (of 5 positions) ran
    the compiled recurrence; its output checked against the LSTM's either way."""
    torch.manual_seed(0)
    n_rows, width = len(lengths), 4
    words = torch.randn(8, width)
    token_rows = torch.tensor([[2, 3, 4, 5, 6]] * n_rows)
    row_predicate = torch.arange(n_rows) % 4
    distance = distance_table(3, 2)
    lstm = nn.LSTM(width * 2 + 2, hidden, bidirectional=True).eval()
    cells, batch_sizes = packed_order(
        torch.arange(n_rows * 5).reshape(n_rows, 5), torch.tensor(lengths)
    )
    ran = []
    recorded = factored_rows.compiled_both_directions
    monkeypatch.setattr(
        factored_rows, "compiled_both_directions", lambda *a: ran.append(1) or recorded(*a)
    )
    with torch.no_grad():
        inputs = row_inputs(words, token_rows, row_predicate, 0, distance)
        expected = lstm(PackedSequence(inputs.reshape(n_rows * 5, -1)[cells], batch_sizes))[0]
        factored = factored_first_layer(
            words, token_rows, row_predicate, 0, distance, lstm, cells, batch_sizes
        )
    torch.testing.assert_close(factored, expected.data, atol=1e-5, rtol=1e-5)
    return bool(ran)


@pytest.mark.parametrize("extra_rows,compiled", [(0, True), (1, False)])
def test_the_first_layer_runs_compiled_up_to_the_step_loops_bound(
    monkeypatch, extra_rows, compiled
):
    """Rows x units within `STEP_LOOP_MAX_CELLS` run the compiled recurrence; more run
    PyTorch's cell step by step (both give the LSTM's output)."""
    hidden = 50
    n_rows = lstm_compiled.STEP_LOOP_MAX_CELLS // hidden + extra_rows
    assert n_rows * hidden > lstm_compiled.COMPILED_MAX_CELLS  # a bound of its own
    assert _first_layer_runs_compiled(monkeypatch, hidden, [5] * n_rows) is compiled


def test_rows_of_mixed_lengths_run_compiled_up_to_their_own_bound(monkeypatch):
    """Past the step loop's bound, rows of different lengths (a paragraph's sentences)
    still run the compiled recurrence up to `MIXED_MAX_CELLS`, to the LSTM's output."""
    hidden = 50
    n_rows = lstm_compiled.MIXED_MAX_CELLS // hidden
    assert n_rows * hidden > lstm_compiled.STEP_LOOP_MAX_CELLS
    mixed = [5 - r % 2 for r in range(n_rows)]
    assert _first_layer_runs_compiled(monkeypatch, hidden, mixed)
    assert not _first_layer_runs_compiled(monkeypatch, hidden, mixed + [4])
