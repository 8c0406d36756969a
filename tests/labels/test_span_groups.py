"""A span group that keeps its spans' bounds gives what iterating it gives, edited or not."""

import copy
import pickle

import pytest
import spacy
from spacy.tokens import Doc, DocBin, Span, SpanGroup

from spacy_senna.features.tokens import SpanTagFeature
from spacy_senna.labels.span_groups import BoundsSpanGroup, span_bounds

WRITTEN = [("NP", 0, 2), ("VP", 2, 3), ("NP", 3, 5)]


def _doc() -> Doc:
    doc = Doc(spacy.blank("en").vocab, words="The cat sat the mat today".split())
    doc.spans["chunks"] = BoundsSpanGroup(doc, bounds=WRITTEN, attrs={"source": "test"})
    return doc


def _iterated(doc: Doc, key: str = "chunks"):
    return [(s.label_, s.start, s.end) for s in doc.spans[key]]


def test_the_group_holds_the_spans_it_was_given_and_keeps_their_bounds():
    doc = _doc()
    assert _iterated(doc) == WRITTEN
    assert list(span_bounds(doc, "chunks")) == WRITTEN
    assert doc.spans["chunks"].attrs == {"source": "test"}
    assert list(span_bounds(doc, "absent")) == []


@pytest.mark.parametrize(
    "edit",
    [
        lambda g, d: g.append(Span(d, 5, 6, label="ADVP")),
        lambda g, d: g.extend([Span(d, 5, 6, label="ADVP")]),
        lambda g, d: g.__iadd__([Span(d, 5, 6, label="ADVP")]),
        lambda g, d: g.__setitem__(1, Span(d, 2, 4, label="VP")),
    ],
    # not `del group[i]`: spaCy 3.8's SpanGroup.__delitem__ frees memory it does not own
    # (the process aborts at exit), with or without this subclass
    ids=["append", "extend", "iadd", "setitem"],
)
def test_any_edit_of_the_group_is_read_back(edit):
    doc = _doc()
    group = doc.spans["chunks"]
    edit(group, doc)
    assert group.bounds is None
    assert list(span_bounds(doc, "chunks")) == _iterated(doc) != WRITTEN


def test_a_plain_group_in_its_place_is_read_from_its_spans():
    doc = _doc()
    doc.spans["chunks"] = [Span(doc, 1, 3, label="NP")]
    assert list(span_bounds(doc, "chunks")) == [("NP", 1, 3)]


def test_spans_read_from_a_group_are_copies_so_editing_one_leaves_the_bounds_true():
    doc = _doc()
    for span in doc.spans["chunks"]:
        span.label_ = "X"
    assert list(span_bounds(doc, "chunks")) == _iterated(doc) == WRITTEN


def test_the_group_serializes_copies_and_pickles_as_a_plain_one():
    doc = _doc()
    for restored in (
        Doc(doc.vocab).from_bytes(doc.to_bytes()),
        list(DocBin(docs=[doc], store_user_data=True).get_docs(doc.vocab))[0],
        pickle.loads(pickle.dumps(doc)),
        doc.copy(),
    ):
        assert _iterated(restored) == list(span_bounds(restored, "chunks")) == WRITTEN


@pytest.mark.parametrize("copied", [copy.copy, copy.deepcopy, lambda group: group.copy()])
def test_a_copy_of_the_group_is_a_plain_one_with_the_same_spans(copied):
    doc = _doc()
    group = copied(doc.spans["chunks"])
    assert type(group) is SpanGroup and group.doc is doc
    assert [(s.label_, s.start, s.end) for s in group] == WRITTEN
    assert group.attrs == {"source": "test"}
    doc.spans["copy"] = group
    assert list(span_bounds(doc, "copy")) == WRITTEN


def test_the_srl_chunk_feature_gives_the_same_ids_from_kept_bounds_as_from_spans():
    doc = _doc()
    plain = _doc()
    plain.spans["chunks"] = [Span(plain, s, e, label=lab) for lab, s, e in WRITTEN]
    feature = SpanTagFeature("chunks", 5)
    feature.fit([doc])
    assert feature.doc_strings(doc) == ["B-NP", "E-NP", "S-VP", "B-NP", "E-NP", "O"]
    assert (feature.extract(doc) == feature.extract(plain)).all()
