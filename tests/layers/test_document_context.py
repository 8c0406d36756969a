"""Document context: the repeated words of a batch, the mean over a word's other mentions,
and the window network reading it."""

import numpy
import pytest
import torch
from spacy.lang.en import English
from spacy.tokens import Doc

from spacy_senna.layers.document_context import other_occurrences_mean
from spacy_senna.layers.lookup_spec import LookupSpec
from spacy_senna.layers.window import WindowNetwork, flatten_windows
from spacy_senna.models.architectures import build_window_tagger
from spacy_senna.models.sequences import occurrence_groups


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
    first = Doc(vocab, words=["Paris", "is", "big", ".", "PARIS", "wins", "."])
    first[4].is_sent_start = True
    second = Doc(vocab, words=["paris", "is"])
    lengths = numpy.array([4, 3, 2])  # the sequences: first's two sentences, then second
    _, index = flatten_windows([numpy.zeros((n, 1)) for n in lengths], 2)
    rows, groups = occurrence_groups([first, second], index, lengths).tolist()
    paris, dot = [index[0, 0], index[1, 0]], [index[0, 3], index[1, 2]]
    # only the first doc's repeated words: Paris/PARIS and the two full stops
    assert sorted(rows) == sorted(paris + dot)
    group_of = dict(zip(rows, groups))
    assert group_of[paris[0]] == group_of[paris[1]] != group_of[dot[0]] == group_of[dot[1]]
    assert sorted(set(groups)) == [0, 1]


def test_a_batch_without_repeated_words_has_no_context():
    doc = Doc(English().vocab, words=["Paris", "wins"])
    _, index = flatten_windows([numpy.zeros((2, 1))], 2)
    assert occurrence_groups([doc], index, numpy.array([2])).shape == (2, 0)
    no_rows = numpy.zeros((0, 0), dtype="int64")
    assert occurrence_groups([], no_rows, numpy.zeros(0, dtype="int64")).shape == (2, 0)


def _network(context_dropout: float) -> WindowNetwork:
    torch.manual_seed(0)
    return WindowNetwork(
        lookup=LookupSpec(table_sizes=[10], widths=[4]),
        n_tags=3,
        hidden_width=6,
        doc_context=True,
        context_dropout=context_dropout,
    )


def _inputs():
    flat, index = flatten_windows([numpy.array([[2], [3], [2]]), numpy.array([[2], [4]])], 2)
    flat, index = torch.from_numpy(flat), torch.from_numpy(index)
    repeated = torch.tensor([[index[0, 0], index[0, 2]], [0, 0]])
    return flat, index, repeated


def test_the_context_reaches_repeated_words_only():
    net = _network(0.0).eval()
    flat, index, repeated = _inputs()
    with_context = net(flat, index, repeated)
    without = net(flat, index, torch.zeros(2, 0, dtype=torch.long))
    changed = (with_context != without).any(dim=-1).tolist()
    assert changed[0] == [True, False, True] and changed[1][:2] == [False, False]


def test_context_dropout_one_is_training_without_context():
    net = _network(1.0)
    flat, index, repeated = _inputs()
    nothing = torch.zeros(2, 0, dtype=torch.long)
    net.train(True)
    assert torch.equal(net(flat, index, repeated), net(flat, index, nothing))
    net.train(False)
    assert not torch.equal(net(flat, index, repeated), net(flat, index, nothing))


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
