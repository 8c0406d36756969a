"""PredicateLSTMNetwork (the SRL BiLSTM): a row reads its whole sentence and its own
predicate, never its neighbours in the batch, and the predicate's context stops at the
sentence's edges."""

import numpy
import pytest
import torch

from spacy_senna.layers.predicate_lstm import PredicateLSTMNetwork
from spacy_senna.layers.window import flatten_windows

SENTENCES = [numpy.array([[2], [3], [2], [5], [6], [7]]), numpy.array([[4], [2]])]


def _network(**settings) -> PredicateLSTMNetwork:
    torch.manual_seed(0)
    return PredicateLSTMNetwork(
        table_sizes=[10], widths=[4], n_tags=3, lstm_width=3, **settings
    ).eval()


def _scores(net, sentences, rows) -> torch.Tensor:
    """Scores of `rows`, each (sentence, predicate), of a batch of `sentences`."""
    flat, index = flatten_windows(sentences, net.half_window)
    row_sentence = torch.tensor([s for s, _ in rows])
    row_predicate = torch.tensor([p for _, p in rows])
    lengths = torch.tensor([len(sentences[s]) for s, _ in rows])
    with torch.no_grad():
        return net(
            torch.from_numpy(flat), torch.from_numpy(index), row_sentence, row_predicate, lengths
        )


def test_a_row_scores_the_same_alone_and_in_a_batch():
    net = _network(window_size=3)
    rows = [(0, 0), (0, 5), (1, 0), (1, 1), (0, 2)]
    batch = _scores(net, SENTENCES, rows)
    for r, (s, p) in enumerate(rows):
        alone = _scores(net, [SENTENCES[s]], [(0, p)])[0]
        n = len(SENTENCES[s])
        assert torch.allclose(batch[r, :n], alone[:n], atol=1e-6)
        assert not batch[r, n:].any()  # padding positions score nothing


def test_scores_depend_on_the_predicate_and_on_words_far_away():
    net = _network()
    first, last = _scores(net, SENTENCES[:1], [(0, 1), (0, 4)])
    assert not torch.allclose(first, last)
    changed = SENTENCES[0].copy()
    changed[-1] = 8
    after = _scores(net, [changed], [(0, 1)])[0]
    assert not torch.equal(first[0], after[0])  # five words away, through the LSTM


def test_an_empty_batch_scores_nothing():
    net = _network()
    scores = _scores(net, [], [])
    assert scores.shape == (0, 0, 3)


@pytest.mark.parametrize(
    "settings, message",
    [
        ({"window_size": 2}, "window_size must be odd"),
        ({"lstm_depth": 0}, "must be positive"),
        ({"max_distance": 0}, "max_distance"),
    ],
)
def test_bad_settings_are_clear_errors(settings, message):
    with pytest.raises(ValueError, match=message):
        _network(**settings)
