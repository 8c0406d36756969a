"""senna_chunker: training on the gold POS cascade, and a warning when its POS input is
missing."""

import pytest

import spacy_senna  # noqa: F401


def spans_of(doc, key):
    return [(s.start, s.end, s.label_) for s in doc.spans[key]]


def test_chunker_overfits_with_gold_pos_cascade(chunker, span_sentences):
    nlp, losses = chunker
    assert losses[-1] < losses[0] * 0.05
    for text, tags, _, chunks in span_sentences:
        doc = nlp.make_doc(text)
        for token, tag in zip(doc, tags):
            token.tag_ = tag
        assert spans_of(nlp(doc), "chunks") == [(s, e, lab) for s, e, lab in chunks]


def test_chunker_warns_when_its_pos_input_is_missing(chunker):
    nlp, _ = chunker
    nlp.get_pipe("senna_chunker")._warned_inputs = False
    with pytest.warns(UserWarning, match="senna_tagger"):
        nlp("Mary saw the big house")
