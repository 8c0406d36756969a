"""Span probabilities computed when first read (`span_scores = true`): the same values as
computed with the spans, for a whole batch at once, nothing computed when nothing is read,
carried by serialization and copies, and a clear error for a doc changed in between."""

import copy
import gc
import pickle
from concurrent.futures import ThreadPoolExecutor

import numpy
import pytest
import spacy
from spacy.tokens import Doc, DocBin
from spacy.util import make_tempdir

import spacy_senna  # noqa: F401
from spacy_senna.pipeline.span_scores import ScoredSpanGroup
from spacy_senna.pipeline.spans import SpanLabeler

TEXTS = [
    "John Smith visited Paris today",
    "Mary saw the big house in Berlin .",
    "Acme  Corp hired   Anna in London",  # whitespace tokens: labelled without them
    "",
    "Paris",
]


@pytest.fixture(scope="module")
def ner_dir(ner):
    nlp, _ = ner
    with make_tempdir() as d:
        nlp.to_disk(d)
        yield d


def _load(path, setting):
    return spacy.load(path, config={"components": {"senna_ner": {"span_scores": setting}}})


def _scores(docs):
    return [numpy.asarray(doc.spans["senna_ents"].attrs["scores"]) for doc in docs]


def _ents(doc):
    return [(e.start, e.end, e.label_) for e in doc.ents]


def _count_passes(monkeypatch):
    calls = []
    original = SpanLabeler.row_probabilities

    def counted(self, docs, rows_of):
        calls.append(len(docs))
        return original(self, docs, rows_of)

    monkeypatch.setattr(SpanLabeler, "row_probabilities", counted)
    return calls


def test_read_probabilities_equal_those_computed_with_the_spans(ner_dir):
    eager = list(_load(ner_dir, "eager").pipe(TEXTS, batch_size=2))
    lazy = list(_load(ner_dir, True).pipe(TEXTS, batch_size=2))
    assert all(not isinstance(doc.spans["senna_ents"], ScoredSpanGroup) for doc in eager)
    assert all(isinstance(doc.spans["senna_ents"], ScoredSpanGroup) for doc in lazy)
    assert [_ents(d) for d in lazy] == [_ents(d) for d in eager]
    for got, expected in zip(_scores(lazy), _scores(eager)):
        assert got.dtype == numpy.float32 and len(got) == len(expected)
        assert numpy.allclose(got, expected, atol=1e-5, rtol=0)
    assert len(_scores(lazy)[0]) == len(lazy[0].ents) > 0


def test_one_read_computes_the_whole_batch_and_no_read_computes_nothing(ner_dir, monkeypatch):
    calls = _count_passes(monkeypatch)
    nlp = _load(ner_dir, True)
    docs = list(nlp.pipe(TEXTS, batch_size=len(TEXTS)))
    assert [d.ents for d in docs] and calls == []
    docs[1].spans["senna_ents"].attrs["scores"]
    assert calls == [len(TEXTS)]
    _scores(docs)
    assert calls == [len(TEXTS)]  # every other doc of the batch got its scores then


def test_docs_already_gone_are_not_scored(ner_dir, monkeypatch):
    calls = _count_passes(monkeypatch)
    docs = list(_load(ner_dir, True).pipe(TEXTS, batch_size=len(TEXTS)))
    kept = docs[0]
    del docs
    assert len(kept.spans["senna_ents"].attrs["scores"]) == len(kept.ents)
    assert calls == [1]


def test_a_doc_gone_after_the_read_releases_its_probabilities(ner_dir):
    """Docs dropped after one doc's read no longer hold memory through the docs kept."""
    expected = _scores(_load(ner_dir, "eager").pipe(TEXTS))
    docs = list(_load(ner_dir, True).pipe(TEXTS, batch_size=len(TEXTS)))
    kept = docs[4]
    pending = kept.spans["senna_ents"]._pending
    docs[0].spans["senna_ents"].attrs["scores"]  # computes the batch's probabilities
    assert len(pending._computed) == len(TEXTS)
    del docs
    gc.collect()
    assert list(pending._computed) == [4]
    assert numpy.allclose(_scores([kept])[0], expected[4], atol=1e-5, rtol=0)


def test_kept_docs_leave_the_garbage_collector_few_objects_until_read(ner_dir):
    """What the probabilities to come need is kept per batch: a labelled doc adds its span
    group and one weak reference to what the collector tracks, not its rows as lists."""
    nlp = _load(ner_dir, True)
    texts = [f"Anna visited Paris on day {i}" for i in range(200)]
    docs = [nlp.make_doc(text) for text in texts]
    ner = nlp.get_pipe("senna_ner")
    list(ner.pipe([nlp.make_doc(texts[0])]))  # what a first call builds once
    gc.collect()
    before = len(gc.get_objects())
    labelled = list(ner.pipe(docs, batch_size=64))
    gc.collect()
    per_doc = (len(gc.get_objects()) - before) / len(labelled)
    assert per_doc <= 2.5, per_doc
    assert numpy.allclose(_scores(labelled[:1])[0], _scores([_load(ner_dir, "eager")(texts[0])])[0])


def test_threads_reading_one_batch_get_the_probabilities_computed_once(ner_dir, monkeypatch):
    calls = _count_passes(monkeypatch)
    eager = _scores(_load(ner_dir, "eager").pipe(TEXTS * 4, batch_size=64))
    docs = list(_load(ner_dir, True).pipe(TEXTS * 4, batch_size=64))
    with ThreadPoolExecutor(8) as pool:
        read = list(pool.map(lambda doc: _scores([doc])[0], docs))
    assert calls == [len(docs)]
    assert all(numpy.allclose(a, b, atol=1e-5, rtol=0) for a, b in zip(read, eager))


def test_serialized_and_copied_docs_carry_the_probabilities(ner_dir):
    nlp = _load(ner_dir, True)
    expected = _scores([_load(ner_dir, "eager")(TEXTS[0])])[0]
    for carry in (
        lambda doc: next(DocBin(docs=[doc], store_user_data=True).get_docs(nlp.vocab)),
        lambda doc: Doc(nlp.vocab).from_bytes(doc.to_bytes()),
        lambda doc: pickle.loads(pickle.dumps(doc)),
        lambda doc: doc.copy(),
    ):
        carried = carry(nlp(TEXTS[0]))
        assert numpy.allclose(_scores([carried])[0], expected, atol=1e-5)
    doc = nlp(TEXTS[0])
    for copied in (copy.copy, copy.deepcopy):
        group = copied(doc.spans["senna_ents"])
        assert not isinstance(group, ScoredSpanGroup)
        assert numpy.allclose(numpy.asarray(group.attrs["scores"]), expected, atol=1e-5)


def test_a_doc_changed_before_its_probabilities_are_read_is_a_clear_error(ner_dir):
    doc = _load(ner_dir, True)(TEXTS[0])
    with doc.retokenize() as retokenizer:
        retokenizer.merge(doc[0:2])
    with pytest.raises(ValueError, match="changed after it was labelled"):
        doc.spans["senna_ents"].attrs["scores"]


def test_span_scores_off_writes_none_and_a_bad_setting_is_a_clear_error(ner_dir):
    doc = _load(ner_dir, False)(TEXTS[0])
    assert doc.ents and "scores" not in doc.spans["senna_ents"].attrs
    with pytest.raises(ValueError, match="span_scores must be true"):
        _load(ner_dir, "sometimes")
