"""senna_chunker: training on the gold POS cascade, a warning when its POS input is
missing, and `doc.noun_chunks` from its NP chunks."""

import pickle

import pytest
from spacy.lang.en import English
from spacy.lang.en.syntax_iterators import noun_chunks as english_noun_chunks
from spacy.tokens import Doc

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


def _tagged(nlp, text, tags):
    doc = nlp.make_doc(text)
    for token, tag in zip(doc, tags):
        token.tag_ = tag
    return nlp(doc)


def test_noun_chunks_are_the_np_chunks(chunker, span_sentences):
    nlp, _ = chunker
    for text, tags, _, chunks in span_sentences:
        doc = _tagged(nlp, text, tags)
        nps = [(s, e) for s, e, label in chunks if label == "NP"]
        assert nps, "the fixture needs NP chunks"
        assert [(c.start, c.end, c.label_) for c in doc.noun_chunks] == [
            (s, e, "NP") for s, e in nps
        ]
        inside = doc[nps[-1][0] : len(doc)]
        assert [(c.start, c.end) for c in inside.noun_chunks] == [
            (s, e) for s, e in nps if s >= inside.start
        ]


def test_noun_chunks_survive_pickling_the_vocab(chunker, span_sentences):
    nlp, _ = chunker
    text, tags, _, chunks = span_sentences[0]
    doc = _tagged(nlp, text, tags)
    restored = pickle.loads(pickle.dumps(doc))
    assert [c.text for c in restored.noun_chunks] == [c.text for c in doc.noun_chunks]


def test_a_dependency_parse_keeps_the_languages_noun_chunks(chunker):
    nlp, _ = chunker
    words, deps = ["Mary", "saw", "the", "house"], ["nsubj", "ROOT", "det", "dobj"]
    doc = Doc(
        nlp.vocab,
        words=words,
        heads=[1, 1, 3, 1],
        deps=deps,
        pos=["PROPN", "VERB", "DET", "NOUN"],
    )
    assert [c.text for c in doc.noun_chunks] == ["Mary", "the house"]
    assert [c.text for c in doc.noun_chunks] == [
        doc[s:e].text for s, e, _ in english_noun_chunks(doc)
    ]


def test_noun_chunks_without_chunks_say_what_to_run(chunker):
    nlp, _ = chunker
    doc = nlp.make_doc("Mary saw the big house")
    with pytest.raises(ValueError, match=r"doc.spans\['chunks'\].*senna_chunker"):
        list(doc.noun_chunks)


def test_the_first_chunker_gives_the_noun_chunks():
    nlp = English()
    nlp.add_pipe("senna_chunker")
    nlp.add_pipe("senna_chunker", name="pt0", config={"spans_key": "pt0"})
    assert nlp.vocab.get_noun_chunks.spans_key == "chunks"
    assert nlp.vocab.get_noun_chunks.parse_iterator is english_noun_chunks
