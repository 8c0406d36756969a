"""Document context: occurrence groups of a batch, and the mean over a word's other mentions."""

import numpy
import pytest
import torch
from spacy.lang.en import English
from spacy.tokens import Doc

from spacy_senna.layers.document_context import occurrence_groups, other_occurrences_mean
from spacy_senna.layers.window import WindowNetwork, flatten_windows
from spacy_senna.models import build_window_tagger


def test_other_occurrences_mean_leaves_the_token_out():
    hidden = torch.tensor([[1.0, 2.0], [5.0, 5.0], [3.0, 4.0], [7.0, 0.0], [9.0, 6.0]])
    groups = torch.tensor([0, 1, 0, 2, 0])
    mean = other_occurrences_mean(hidden, groups)
    expected = [[6.0, 5.0], [0.0, 0.0], [5.0, 4.0], [0.0, 0.0], [2.0, 3.0]]
    assert mean.tolist() == expected


def test_other_occurrences_mean_passes_gradients_to_the_other_mentions():
    hidden = torch.ones(3, 2, requires_grad=True)
    other_occurrences_mean(hidden, torch.tensor([0, 0, 1]))[0].sum().backward()
    assert hidden.grad.tolist() == [[0.0, 0.0], [1.0, 1.0], [0.0, 0.0]]


def test_groups_join_mentions_of_one_doc_whatever_their_case_not_across_docs():
    vocab = English().vocab
    first = Doc(vocab, words=["Paris", "is", "big", ".", "PARIS", "wins"])
    first[4].is_sent_start = True
    second = Doc(vocab, words=["paris", "is"])
    docs = [first, second]
    bounds = [[(0, 4), (4, 6)], [(0, 2)]]
    pieces = [numpy.zeros((4, 1)), numpy.zeros((2, 1)), numpy.zeros((2, 1))]
    flat, index = flatten_windows(pieces, 2)
    rows = occurrence_groups(docs, bounds, index, len(flat) - 4).tolist()
    token = [rows[index[b, t]] for b, n in enumerate([4, 2, 2]) for t in range(n)]
    paris, is_, big, dot, paris2, wins, paris3, is2 = token
    assert paris == paris2 and len({paris, is_, big, dot, wins}) == 5
    assert paris3 != paris and is2 != is_
    padding = [g for r, g in enumerate(rows) if r not in set(index[index > 0].tolist()) | {0}]
    assert len(padding) == len(set(padding)) and not set(padding) & set(token)


def test_context_dropout_one_is_training_without_context():
    torch.manual_seed(0)
    net = WindowNetwork(
        table_sizes=[10],
        widths=[4],
        n_tags=3,
        hidden_width=6,
        doc_context=True,
        context_dropout=1.0,
    )
    ids = [numpy.array([[2], [3], [2]]), numpy.array([[2], [4]])]
    flat, index = flatten_windows(ids, 2)
    flat, index = torch.from_numpy(flat), torch.from_numpy(index)
    n_rows = len(flat) - 4
    same_word = torch.arange(n_rows)
    same_word[index[0, 2]] = same_word[index[0, 0]]
    alone = torch.arange(n_rows)
    net.train(True)
    assert torch.equal(net(flat, index, same_word), net(flat, index, alone))
    net.train(False)
    assert not torch.equal(net(flat, index, same_word), net(flat, index, alone))


@pytest.mark.parametrize(
    "settings, message",
    [
        ({"doc_context": True, "context_dropout": 1.5}, "between 0 and 1"),
        ({"context_dropout": 0.5}, "needs doc_context = true"),
    ],
)
def test_bad_context_settings_are_named(settings, message):
    with pytest.raises(ValueError, match=message):
        build_window_tagger({}, **settings)
