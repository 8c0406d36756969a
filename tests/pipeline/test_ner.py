"""senna_ner: training, span probabilities, save/load, existing entities, sentences, a
gazetteer feature saved with the pipeline."""

import numpy
import spacy
from spacy.util import make_tempdir

import spacy_senna  # noqa: F401


def test_ner_overfits_and_reports_probabilities(ner, span_sentences):
    nlp, losses = ner
    assert losses[-1] < losses[0] * 0.05
    for text, _, ents, _ in span_sentences:
        doc = nlp(text)
        assert [(e.start, e.end, e.label_) for e in doc.ents] == ents
        scores = doc.spans["senna_ents"].attrs["scores"]
        assert len(scores) == len(ents) and numpy.all((scores > 0.5) & (scores <= 1.0))


def test_span_scores_off_gives_the_same_entities_without_probabilities(ner, span_sentences):
    nlp, _ = ner
    with make_tempdir() as d:
        nlp.to_disk(d)
        fast = spacy.load(d, config={"components": {"senna_ner": {"span_scores": False}}})
    assert fast.get_pipe("senna_ner").span_scores is False
    for text, *_ in span_sentences:
        doc, fast_doc = nlp(text), fast(text)
        assert [(e.start, e.end, e.label_) for e in fast_doc.ents] == [
            (e.start, e.end, e.label_) for e in doc.ents
        ]
        assert list(fast_doc.spans["senna_ents"]) == list(fast_doc.ents)
        assert "scores" not in fast_doc.spans["senna_ents"].attrs


def test_save_load_and_pipe_equal_call(ner, span_sentences):
    nlp, _ = ner
    texts = [s[0] for s in span_sentences] + ["", "Paris John", "Berlin " * 40]
    expected = [[(e.start, e.end, e.label_) for e in d.ents] for d in nlp.pipe(texts)]
    assert expected == [[(e.start, e.end, e.label_) for e in nlp(t).ents] for t in texts]
    assert expected == [
        [(e.start, e.end, e.label_) for e in d.ents] for d in nlp.pipe(texts, batch_size=1)
    ]
    with make_tempdir() as d:
        nlp.to_disk(d)
        loaded = spacy.load(d)
    assert expected == [[(e.start, e.end, e.label_) for e in d.ents] for d in loaded.pipe(texts)]


def test_ner_keeps_existing_entities_unless_overwrite(ner):
    nlp, _ = ner
    doc = nlp.make_doc("John Smith visited Paris today")
    doc.ents = [doc.char_span(0, 4, label="ORG")]
    doc = nlp.get_pipe("senna_ner")(doc)
    assert [(e.text, e.label_) for e in doc.ents] == [("John", "ORG"), ("Paris", "LOC")]


def test_sentences_are_labelled_separately(ner, span_sentences):
    nlp, _ = ner
    first, second = span_sentences[0][0], span_sentences[1][0]
    doc = nlp.make_doc(f"{first} {second}")
    n_first = len(nlp.make_doc(first))
    for token in doc:
        token.is_sent_start = token.i in (0, n_first)
    ents = [(e.start, e.end, e.label_) for e in nlp(doc).ents]
    expected = span_sentences[0][2] + [
        (s + n_first, e + n_first, lab) for s, e, lab in span_sentences[1][2]
    ]
    assert ents == expected
    assert len(doc.spans["senna_ents"].attrs["scores"]) == len(expected)


def test_ner_with_gazetteer_saves_entries(tmp_path, train_span_labeler):
    gaz = tmp_path / "gaz.lst"
    gaz.write_text("PER john smith\nLOC paris\n")
    feature = {
        "@misc": "spacy-senna.GazetteerFeature.v1",
        "path": str(gaz),
        "types": ["LOC", "PER"],
    }
    nlp, _ = train_span_labeler(
        "senna_ner", steps=30, config={"model": {"features": {"gazetteer": feature}}}
    )
    gaz.unlink()
    with make_tempdir() as d:
        nlp.to_disk(d)
        loaded = spacy.load(d)
    text = "John Smith visited Paris today"
    assert [e.text for e in loaded(text).ents] == [e.text for e in nlp(text).ents]
    features = loaded.get_pipe("senna_ner").model.attrs["featurizer"].features
    assert features["gazetteer"].entries["PER"] == {"john smith"}
