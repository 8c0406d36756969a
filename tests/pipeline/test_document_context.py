"""senna_ner with document context: a word's other mentions in the Doc decide its label."""

import warnings

import pytest
import spacy
from spacy.lang.en import English
from spacy.tokens import Doc, Span
from spacy.training import Example
from spacy.util import make_tempdir

import spacy_senna  # noqa: F401

# "Jordan won ." is the same sentence in both documents; only the other sentence of its
# document says whether Jordan is a person or a country
DOCUMENTS = [
    (["Jordan won .", "Jordan plays football ."], "PER"),
    (["Jordan won .", "Jordan borders Israel ."], "LOC"),
    (["Smith won .", "Smith plays football ."], "PER"),
    (["Peru won .", "Peru borders Chile ."], "LOC"),
]


def _doc(nlp, sentences, label=None) -> Doc:
    words = [w for sentence in sentences for w in sentence.split()]
    starts = [i == 0 for sentence in sentences for i, _ in enumerate(sentence.split())]
    doc = Doc(nlp.vocab, words=words, sent_starts=starts)
    if label:
        ents = [Span(doc, i, i + 1, label) for i, w in enumerate(words) if w[0].isupper()]
        doc.ents = [e for e in ents if e.text not in ("Israel", "Chile")] + [
            Span(doc, i, i + 1, "LOC") for i, w in enumerate(words) if w in ("Israel", "Chile")
        ]
    return doc


def _train(doc_context: bool, steps: int = 60):
    nlp = English()
    config = {"model": {"doc_context": doc_context}}
    nlp.add_pipe("senna_ner", config=config)
    examples = [Example(_doc(nlp, s), _doc(nlp, s, label)) for s, label in DOCUMENTS]
    optimizer = nlp.initialize(lambda: examples)
    for _ in range(steps):
        nlp.update(examples, sgd=optimizer)
    return nlp


def _ents(doc: Doc) -> list:
    return [(e.start, e.end, e.label_) for e in doc.ents]


def test_document_context_tells_apart_identical_sentences():
    nlp = _train(doc_context=True)
    for sentences, label in DOCUMENTS[:2]:
        doc = nlp(_doc(nlp, sentences))
        assert ("Jordan", label) == (doc.ents[0].text, doc.ents[0].label_), sentences
    # without document context the shared first sentence gets one labelling in both
    plain = _train(doc_context=False)
    first = [_ents(plain(_doc(plain, s)))[:1] for s, _ in DOCUMENTS[:2]]
    assert first[0] == first[1]


def test_document_context_pipe_equals_call_and_survives_save_load():
    nlp = _train(doc_context=True, steps=20)
    docs = [_doc(nlp, s) for s, _ in DOCUMENTS] + [_doc(nlp, ["Jordan"]), Doc(nlp.vocab)]
    expected = [_ents(nlp(d.copy())) for d in docs]
    assert expected == [_ents(d) for d in nlp.pipe(d.copy() for d in docs)]
    assert expected == [_ents(d) for d in nlp.pipe((d.copy() for d in docs), batch_size=1)]
    with make_tempdir() as path:
        nlp.to_disk(path)
        loaded = spacy.load(path)
    assert expected == [_ents(loaded(d.copy())) for d in docs]


def test_training_on_single_sentences_warns_that_the_context_sees_nothing():
    nlp = English()
    nlp.add_pipe("senna_ner", config={"model": {"doc_context": True}})
    sentences = [s for sentences, _ in DOCUMENTS for s in sentences]
    labels = [label for sentences, label in DOCUMENTS for _ in sentences]
    examples = [Example(_doc(nlp, [s]), _doc(nlp, [s], lab)) for s, lab in zip(sentences, labels)]
    with pytest.warns(UserWarning, match="every training Doc holds one sentence"):
        nlp.initialize(lambda: examples)
    documents = [Example(_doc(nlp, s), _doc(nlp, s, label)) for s, label in DOCUMENTS]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        nlp.initialize(lambda: documents)
