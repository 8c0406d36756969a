"""PredicateHeadsNetwork (SRL with each sentence encoded once): a row reads its whole
sentence and its own predicate, never its neighbours in the batch, and a sentence's
encoding is shared by its predicates."""

import numpy
import pytest
import torch

from spacy_senna.layers.predicate_heads import PredicateHeadsNetwork
from spacy_senna.layers.window import flatten_windows

SENTENCES = [numpy.array([[2], [3], [2], [5], [6], [7]]), numpy.array([[4], [2]])]


def _network(**settings) -> PredicateHeadsNetwork:
    torch.manual_seed(0)
    settings = {"lstm_width": 3, "projection_width": 4, "head_width": 3, **settings}
    return PredicateHeadsNetwork(table_sizes=[10], widths=[4], n_tags=3, **settings).eval()


def _scores(net, sentences, rows) -> torch.Tensor:
    """Scores of `rows`, each (sentence, predicate), of a batch of `sentences`."""
    flat, index = flatten_windows(sentences, net.half_window)
    row_sentence = torch.tensor([s for s, _ in rows], dtype=torch.long)
    row_predicate = torch.tensor([p for _, p in rows], dtype=torch.long)
    lengths = torch.tensor([len(sentences[s]) for s, _ in rows], dtype=torch.long)
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
    assert not torch.equal(first[0], after[0])  # five words away, through the LSTMs


def test_the_sentence_is_encoded_once_for_all_its_predicates():
    net = _network()
    calls = []
    net.encoder[0].lstm.register_forward_hook(lambda m, i, o: calls.append(i[0].batch_sizes))
    _scores(net, SENTENCES[:1], [(0, p) for p in range(6)])
    assert [sizes.tolist() for sizes in calls] == [[1] * 6]  # one sentence of six words


def test_training_fits_a_tiny_set():
    torch.manual_seed(0)
    net = PredicateHeadsNetwork(
        table_sizes=[10], widths=[4], n_tags=3, lstm_width=8, projection_width=8, head_width=8
    )
    gold = torch.tensor([[0, 1, 2, 0, 0, 1], [2, 2, 0, 1, 1, 0], [1, 0, 0, 0, 0, 0]])
    optimizer = torch.optim.Adam(net.parameters(), lr=0.05)
    flat, index = flatten_windows(SENTENCES, net.half_window)
    inputs = (
        torch.from_numpy(flat),
        torch.from_numpy(index),
        torch.tensor([0, 0, 1]),
        torch.tensor([1, 4, 0]),
        torch.tensor([6, 6, 2]),
    )
    mask = torch.tensor([[True] * 6, [True] * 6, [True] * 2 + [False] * 4])
    losses = []
    for _ in range(60):
        optimizer.zero_grad()
        loss = torch.nn.functional.cross_entropy(net(*inputs)[mask], gold[mask])
        loss.backward()
        optimizer.step()
        losses.append(float(loss.detach()))
    assert losses[-1] < 0.1 * losses[0]
    assert torch.equal(net.eval()(*inputs).argmax(2)[mask], gold[mask])


def test_an_empty_batch_scores_nothing():
    assert _scores(_network(), [], []).shape == (0, 0, 3)


@pytest.mark.parametrize(
    "settings, message",
    [
        ({"window_size": 2}, "window_size must be odd"),
        ({"lstm_depth": 0}, "lstm_depth must be positive"),
        ({"head_width": 0}, "head_width must be positive"),
        ({"max_distance": 0}, "max_distance"),
    ],
)
def test_bad_settings_are_clear_errors(settings, message):
    with pytest.raises(ValueError, match=message):
        _network(**settings)
