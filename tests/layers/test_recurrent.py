"""SentenceLSTM inside the window network: it reads the whole sentence, never its
neighbours in the batch, and gives padding rows nothing; with its states in the window or
at the centre word only. And input dropout, which acts in training only."""

import numpy
import pytest
import torch

from spacy_senna.layers.lookup_spec import LookupSpec
from spacy_senna.layers.recurrent import SentenceLSTM
from spacy_senna.layers.window import WindowNetwork, flatten_windows
from spacy_senna.models.architectures import build_window_tagger

SENTENCES = [numpy.array([[2], [3], [2], [5], [6], [7]]), numpy.array([[2], [4]])]


def _network(lstm_width: int, lstm_window: bool = True, input_dropout: float = 0.0):
    torch.manual_seed(0)
    return WindowNetwork(
        lookup=LookupSpec(table_sizes=[10], widths=[4]),
        n_tags=3,
        hidden_width=6,
        lstm_width=lstm_width,
        lstm_window=lstm_window,
        input_dropout=input_dropout,
    ).eval()


def _scores(net: WindowNetwork, sentences) -> torch.Tensor:
    flat, index = flatten_windows(sentences, net.half_window)
    lengths = torch.tensor([len(s) for s in sentences])
    with torch.no_grad():
        return net(torch.from_numpy(flat), torch.from_numpy(index), None, lengths)


@pytest.mark.parametrize("lstm_window", [True, False])
def test_a_sentence_scores_the_same_alone_and_in_a_batch(lstm_window):
    net = _network(lstm_width=3, lstm_window=lstm_window)
    batch = _scores(net, SENTENCES)
    for b, sentence in enumerate(SENTENCES):
        alone = _scores(net, [sentence])[0]
        assert torch.allclose(batch[b, : len(sentence)], alone, atol=1e-6)


@pytest.mark.parametrize(
    "lstm_width, lstm_window, reaches", [(0, True, False), (3, True, True), (3, False, True)]
)
def test_the_lstm_reaches_beyond_the_window(lstm_width, lstm_window, reaches):
    """Changing the last word of a six-word sentence changes the first word's scores only
    with the LSTM: the window (5 words) ends two words after it."""
    net = _network(lstm_width, lstm_window)
    changed = SENTENCES[0].copy()
    changed[-1] = 8
    first = _scores(net, [SENTENCES[0]])[0, 0]
    assert (not torch.equal(first, _scores(net, [changed])[0, 0])) == reaches


def test_padding_rows_get_zero_states():
    lstm = SentenceLSTM(input_width=4, width=3)
    flat, index = flatten_windows(SENTENCES, 2)
    rows = torch.randn(len(flat), 4)
    states = lstm(rows, torch.from_numpy(index) + 2, torch.tensor([6, 2]))
    tokens = {int(index[b, t]) + 2 for b, s in enumerate(SENTENCES) for t in range(len(s))}
    padding = [r for r in range(len(flat)) if r not in tokens]
    assert states.shape == (len(flat), 6)
    assert not states[padding].any() and states[sorted(tokens)].abs().sum(1).min() > 0


def test_each_sentence_gets_the_states_of_the_lstm_run_on_it_alone():
    """The packed batch (sentences of several lengths, two of the same) gives every token
    the states that torch's LSTM gives the sentence on its own."""
    torch.manual_seed(0)
    lstm = SentenceLSTM(input_width=4, width=3).eval()
    sentences = [numpy.full((n, 1), 2) for n in (3, 7, 1, 7, 4)]
    flat, index = flatten_windows(sentences, 2)
    rows = torch.randn(len(flat), 4)
    token_rows = torch.from_numpy(index) + 2
    with torch.no_grad():
        states = lstm(rows, token_rows, torch.tensor([len(s) for s in sentences]))
        for b, sentence in enumerate(sentences):
            mine = token_rows[b, : len(sentence)]
            alone = lstm.lstm(rows[mine][None])[0][0]
            torch.testing.assert_close(states[mine], alone)


@pytest.mark.parametrize("lstm_window", [True, False])
def test_the_lstm_learns_from_the_loss(lstm_window):
    net = _network(lstm_width=3, lstm_window=lstm_window).train()
    flat, index = flatten_windows(SENTENCES, 2)
    out = net(torch.from_numpy(flat), torch.from_numpy(index), None, torch.tensor([6, 2]))
    out.sum().backward()
    assert net.lstm.lstm.weight_ih_l0.grad.abs().sum() > 0


def test_centre_states_make_the_window_layer_narrower():
    """Without lstm_window the window layer reads word features only; the states enter
    through one centre-word weight: (4 + 0) * 5 * 6 + 6 * 6 against (4 + 6) * 5 * 6."""
    window, centre = _network(3, lstm_window=True), _network(3, lstm_window=False)
    assert window.hidden.weight.numel() == 300 and window.lstm_centre is None
    assert centre.hidden.weight.numel() + centre.lstm_centre.weight.numel() == 156


@pytest.mark.parametrize("lstm_width", [0, 3])
def test_input_dropout_acts_in_training_only(lstm_width):
    net = _network(lstm_width, input_dropout=0.5).train()
    assert not torch.equal(_scores(net, SENTENCES), _scores(net, SENTENCES))
    net.eval()
    assert torch.equal(_scores(net, SENTENCES), _scores(net, SENTENCES))


def test_bad_lstm_settings_are_clear_errors():
    with pytest.raises(ValueError, match="lstm_width must be 0"):
        build_window_tagger({}, lstm_width=-1)
    with pytest.raises(ValueError, match="input_dropout must be at least 0 and below 1"):
        build_window_tagger({}, input_dropout=1.0)
    flat, index = flatten_windows(SENTENCES, 2)
    with pytest.raises(ValueError, match="pass `lengths`"):
        _network(3)(torch.from_numpy(flat), torch.from_numpy(index))
    with pytest.raises(ValueError, match="1 lengths for 2 sentences"):
        _network(3)(torch.from_numpy(flat), torch.from_numpy(index), None, torch.tensor([6]))


def test_a_few_sentences_at_inference_run_compiled_with_the_states_of_many(monkeypatch):
    """One doc's few sentences (no gradient, CPU) go through the compiled recurrence; a
    batch of more sentences, or training, through torch's LSTM; each sentence gets the
    same states either way (rounding aside)."""
    from spacy_senna.layers import lstm_compiled, recurrent

    calls = []
    compiled = recurrent.compiled_bidirectional
    monkeypatch.setattr(
        recurrent, "compiled_bidirectional", lambda *a: calls.append(1) or compiled(*a)
    )
    torch.manual_seed(0)
    lstm = SentenceLSTM(input_width=4, width=3).eval()
    n_many = lstm_compiled.MIXED_MAX_CELLS // 3 + 4  # more rows than compile at width 3
    sentences = [numpy.full((1 + b % 6, 1), 2) for b in range(n_many)]
    flat, index = flatten_windows(sentences, 2)
    rows = torch.randn(len(flat), 4)
    token_rows = torch.from_numpy(index) + 2
    lengths = torch.tensor([len(s) for s in sentences])
    with torch.no_grad():
        many = lstm(rows, token_rows, lengths)
        assert not calls
        few = lstm(rows, token_rows[:5], lengths[:5])
        assert calls == [1]
    torch.testing.assert_close(few, many * (few != 0))
    trained = lstm(rows, token_rows[:5], lengths[:5])
    assert calls == [1] and trained.requires_grad
    torch.testing.assert_close(trained.detach(), few)


@pytest.mark.parametrize("scale", [0.1, 1.0, 30.0])  # small, usual and saturated gates
def test_the_compiled_recurrence_gives_torchs_states_at_full_width(scale):
    """SENNA-sized widths (its exp and tanh are its own vector code), from gates near zero
    to gates far past saturation: torch's states to float32 rounding."""
    from spacy_senna.layers import lstm_compiled

    torch.manual_seed(0)
    lstm = torch.nn.LSTM(20, 100, bidirectional=True)
    lengths = [17, 9, 4]
    inputs = [torch.randn(n, 20) * scale for n in lengths]
    packed = torch.nn.utils.rnn.pack_sequence(inputs)
    with torch.no_grad():
        expected = lstm(packed)[0].data
        states = lstm_compiled.compiled_bidirectional(
            lstm, packed.data, packed.batch_sizes.tolist()
        )
    assert bool(torch.isfinite(states).all())
    torch.testing.assert_close(states, expected, atol=2e-6, rtol=0)


def test_the_compiled_recurrence_follows_weights_changed_in_place():
    """Its copies of the weights are kept between calls, not after an optimizer step."""
    from spacy_senna.layers import lstm_compiled

    torch.manual_seed(0)
    lstm = torch.nn.LSTM(6, 5, bidirectional=True)
    packed = torch.nn.utils.rnn.pack_sequence([torch.randn(7, 6), torch.randn(3, 6)])
    sizes = packed.batch_sizes.tolist()
    with torch.no_grad():
        before = lstm_compiled.compiled_bidirectional(lstm, packed.data, sizes)
        for name in ("weight_hh_l0", "bias_hh_l0_reverse", "weight_ih_l0_reverse", "bias_ih_l0"):
            getattr(lstm, name).mul_(-1.5)
        after = lstm_compiled.compiled_bidirectional(lstm, packed.data, sizes)
        expected = lstm(packed)[0].data
    assert not torch.allclose(after, before, atol=1e-3)
    torch.testing.assert_close(after, expected, atol=2e-6, rtol=0)


@pytest.mark.parametrize("grad", [False, True])
def test_one_sentence_gets_its_states_in_a_batch_and_passes_gradients_back(grad):
    """A short text labelled alone (one sentence: its rows read and written as slices)
    gets the states the same sentence gets in a batch, in training too, where the
    gradient reaches its rows and not the padding around them."""
    torch.manual_seed(0)
    lstm = SentenceLSTM(input_width=4, width=3).train(grad)
    flat, index = flatten_windows(SENTENCES, 2)
    rows = torch.randn(len(flat), 4, requires_grad=grad)
    token_rows = torch.from_numpy(index) + 2
    with torch.set_grad_enabled(grad):
        both = lstm(rows, token_rows, torch.tensor([6, 2]))
        second = lstm(rows, token_rows[1:], torch.tensor([2]))
    mine = token_rows[1, :2]
    torch.testing.assert_close(second[mine], both[mine])
    assert not second[[r for r in range(len(flat)) if r not in mine.tolist()]].any()
    if grad:
        second.sum().backward()
        assert rows.grad[mine].abs().sum(1).min() > 0
        assert not rows.grad[[r for r in range(len(flat)) if r not in mine.tolist()]].any()
