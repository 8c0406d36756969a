"""The sequences a doc is labelled as: its sentences (read from the SENT_START column)
exactly where Doc.sents puts them, else the whole doc."""

import itertools

import pytest
from spacy.lang.en import English
from spacy.tokens import Doc

from spacy_senna.models.sequences import sequence_bounds, sequence_bounds_kept, sequence_bounds_of

VOCAB = English().vocab


def _sents(doc: Doc):
    if not len(doc):
        return []
    if not doc.has_annotation("SENT_START"):
        return [(0, len(doc))]
    return [(s.start, s.end) for s in doc.sents]


@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_bounds_are_the_sentences_for_every_sent_start_pattern(n):
    """True / False / None (missing) at each token, as a user or a sentencizer sets them."""
    for starts in itertools.product([True, False, None], repeat=n):
        doc = Doc(VOCAB, words=["w"] * n, sent_starts=list(starts))
        assert sequence_bounds(doc) == _sents(doc), starts


def test_bounds_of_empty_unsegmented_and_hooked_docs():
    assert sequence_bounds(Doc(VOCAB, words=[])) == []
    assert sequence_bounds(Doc(VOCAB, words="a b c".split())) == [(0, 3)]
    doc = Doc(VOCAB, words="a b c d".split())
    doc.user_hooks["sents"] = lambda d: iter([d[0:1], d[1:4]])
    assert sequence_bounds(doc) == [(0, 1), (1, 4)]


def test_a_batch_gets_the_bounds_each_doc_gets_alone():
    """`sequence_bounds_of` reads a batch's sentence starts at once: every doc, empty,
    unsegmented, hooked or split anywhere, keeps the bounds it has alone."""
    docs = [Doc(VOCAB, words=[])]
    for n in (1, 2, 3):
        for starts in itertools.product([True, False, None], repeat=n):
            docs.append(Doc(VOCAB, words=["w"] * n, sent_starts=list(starts)))
    hooked = Doc(VOCAB, words="a b c d".split())
    hooked.user_hooks["sents"] = lambda d: iter([d[0:1], d[1:4]])
    docs = [docs[-1], hooked, *docs, Doc(VOCAB, words=[]), hooked]
    assert sequence_bounds_of(docs) == [sequence_bounds(doc) for doc in docs]
    assert sequence_bounds_of([]) == []


def test_kept_bounds_are_read_once_inside_and_afresh_after():
    """Inside `sequence_bounds_kept` (one labelling call) a doc's bounds are read once,
    whatever batch it is in; after it, a doc whose sentences changed gets its new ones."""
    first = Doc(VOCAB, words="a b c d".split(), sent_starts=[True, False, True, False])
    second = Doc(VOCAB, words="e f".split())
    with sequence_bounds_kept():
        assert sequence_bounds_of([first]) == [[(0, 2), (2, 4)]]
        first[2].is_sent_start = False
        assert sequence_bounds_of([second, first]) == [[(0, 2)], [(0, 2), (2, 4)]]
    assert sequence_bounds_of([first, second]) == [[(0, 4)], [(0, 2)]]
    with sequence_bounds_kept():
        assert sequence_bounds_of([first]) == [[(0, 4)]]
