"""The SRL networks that run per (sentence, predicate) row, PredicateLSTMNetwork (the
whole BiLSTM per row) and PredicateHeadsNetwork (the sentence encoded once, a light head
per row): a row reads its whole sentence and its own predicate, never its neighbours in
the batch, and the predicate's context stops at the sentence's edges."""

import numpy
import pytest
import torch

from spacy_senna.layers.lookup_spec import LookupSpec
from spacy_senna.layers.predicate_heads import PredicateHeadsNetwork
from spacy_senna.layers.predicate_lstm import PredicateLSTMNetwork
from spacy_senna.layers.window import flatten_windows

SENTENCES = [numpy.array([[2], [3], [2], [5], [6], [7]]), numpy.array([[4], [2]])]
NETWORKS = {
    "bilstm": (PredicateLSTMNetwork, {"lstm_width": 3}),
    "heads": (PredicateHeadsNetwork, {"lstm_width": 3, "projection_width": 4, "head_width": 3}),
}


def _network(kind: str = "bilstm", **settings):
    torch.manual_seed(0)
    cls, defaults = NETWORKS[kind]
    lookup = LookupSpec(table_sizes=[10], widths=[4])
    return cls(lookup=lookup, n_tags=3, **{**defaults, **settings}).eval()


def _inputs(net, sentences, rows):
    flat, index = flatten_windows(sentences, net.half_window)
    return (
        torch.from_numpy(flat),
        torch.from_numpy(index),
        torch.tensor([s for s, _ in rows], dtype=torch.long),
        torch.tensor([p for _, p in rows], dtype=torch.long),
        torch.tensor([len(sentences[s]) for s, _ in rows], dtype=torch.long),
    )


def _scores(net, sentences, rows) -> torch.Tensor:
    """Scores of `rows`, each (sentence, predicate), of a batch of `sentences`."""
    with torch.no_grad():
        return net(*_inputs(net, sentences, rows))


@pytest.mark.parametrize("kind", sorted(NETWORKS))
def test_a_row_scores_the_same_alone_and_in_a_batch(kind):
    net = _network(kind, window_size=3)
    rows = [(0, 0), (0, 5), (1, 0), (1, 1), (0, 2)]
    batch = _scores(net, SENTENCES, rows)
    for r, (s, p) in enumerate(rows):
        alone = _scores(net, [SENTENCES[s]], [(0, p)])[0]
        n = len(SENTENCES[s])
        assert torch.allclose(batch[r, :n], alone[:n], atol=1e-6)
        assert not batch[r, n:].any()  # padding positions score nothing


@pytest.mark.parametrize("kind", sorted(NETWORKS))
def test_scores_depend_on_the_predicate_and_on_words_far_away(kind):
    net = _network(kind)
    first, last = _scores(net, SENTENCES[:1], [(0, 1), (0, 4)])
    assert not torch.allclose(first, last)
    changed = SENTENCES[0].copy()
    changed[-1] = 8
    after = _scores(net, [changed], [(0, 1)])[0]
    assert not torch.equal(first[0], after[0])  # five words away, through the LSTM


def test_the_heads_network_encodes_a_sentence_once_for_all_its_predicates():
    net = _network("heads")
    calls = []
    net.encoder[0].register_forward_hook(lambda m, inputs, o: calls.append(inputs[2]))
    _scores(net, SENTENCES[:1], [(0, p) for p in range(6)])
    assert [lengths.tolist() for lengths in calls] == [[6]]  # one sentence of six words, once


@pytest.mark.parametrize("kind", sorted(NETWORKS))
def test_training_fits_a_tiny_set(kind):
    net = _network(kind, lstm_width=8).train()
    rows = [(0, 1), (0, 4), (1, 0)]
    inputs = _inputs(net, SENTENCES, rows)
    gold = torch.tensor([[0, 1, 2, 0, 0, 1], [2, 2, 0, 1, 1, 0], [1, 0, 0, 0, 0, 0]])
    mask = torch.tensor([[True] * 6, [True] * 6, [True] * 2 + [False] * 4])
    optimizer = torch.optim.Adam(net.parameters(), lr=0.05)
    losses = []
    for _ in range(80):
        optimizer.zero_grad()
        loss = torch.nn.functional.cross_entropy(net(*inputs)[mask], gold[mask])
        loss.backward()
        optimizer.step()
        losses.append(float(loss.detach()))
    assert losses[-1] < 0.1 * losses[0]
    assert torch.equal(net.eval()(*inputs).argmax(2)[mask], gold[mask])


@pytest.mark.parametrize("kind", sorted(NETWORKS))
def test_an_empty_batch_scores_nothing(kind):
    assert _scores(_network(kind), [], []).shape == (0, 0, 3)


@pytest.mark.parametrize(
    "kind, settings, message",
    [
        ("bilstm", {"window_size": 2}, "window_size must be odd"),
        ("bilstm", {"lstm_depth": 0}, "must be positive"),
        ("bilstm", {"max_distance": 0}, "max_distance"),
        ("heads", {"window_size": 2}, "window_size must be odd"),
        ("heads", {"lstm_depth": 0}, "lstm_depth must be positive"),
        ("heads", {"head_width": 0}, "head_width must be positive"),
        ("heads", {"max_distance": 0}, "max_distance"),
    ],
)
def test_bad_settings_are_clear_errors(kind, settings, message):
    with pytest.raises(ValueError, match=message):
        _network(kind, **settings)


@pytest.mark.parametrize("kind", sorted(NETWORKS))
def test_labelling_scores_as_training_computes_them(kind):
    """At inference the first layer runs factored (`factored_rows`); without dropout the
    scores are those of the training path within float rounding."""
    net = _network(kind, window_size=3)
    rows = [(0, 0), (0, 5), (1, 1)]
    inputs = _inputs(net, SENTENCES, rows)
    with torch.no_grad():
        labelling = net.eval()(*inputs)
        training = net.train()(*inputs)
    torch.testing.assert_close(labelling, training, atol=1e-6, rtol=1e-5)
