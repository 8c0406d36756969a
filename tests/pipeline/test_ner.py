"""senna_chunker and senna_ner: training, confidences, save/load, gazetteer, bad input."""

import gzip

import numpy
import pytest
import spacy
from spacy.lang.en import English
from spacy.tokens import Doc, Span
from spacy.training import Example
from spacy.util import make_tempdir

import spacy_senna  # noqa: F401
from spacy_senna.commands.build_gazetteer import build_gazetteer
from spacy_senna.gazetteer import GazetteerFeature, GazetteerMatcher, read_gazetteer
from spacy_senna.readers import copy_inputs

SENTENCES = [
    (
        "John Smith visited Paris today",
        ["NNP", "NNP", "VBD", "NNP", "NN"],
        [(0, 2, "PER"), (3, 4, "LOC")],
        [(0, 2, "NP"), (2, 3, "VP"), (3, 4, "NP"), (4, 5, "NP")],
    ),
    (
        "Mary saw the big house in Berlin",
        ["NNP", "VBD", "DT", "JJ", "NN", "IN", "NNP"],
        [(0, 1, "PER"), (6, 7, "LOC")],
        [(0, 1, "NP"), (1, 2, "VP"), (2, 5, "NP"), (5, 6, "PP"), (6, 7, "NP")],
    ),
]


def make_examples(nlp):
    examples = []
    for text, tags, ents, chunks in SENTENCES:
        doc = nlp.make_doc(text)
        ref = Doc(nlp.vocab, words=[t.text for t in doc], spaces=[bool(t.whitespace_) for t in doc])
        for token, tag in zip(ref, tags):
            token.tag_ = tag
        ref.ents = [
            ref.char_span(ref[s].idx, ref[e - 1].idx + len(ref[e - 1]), lab) for s, e, lab in ents
        ]
        ref.spans["chunks"] = [Span(ref, s, e, label=label) for s, e, label in chunks]
        examples.append(Example(doc, ref))
    return examples


def train(component, steps=50, config=None):
    nlp = English()
    nlp.add_pipe(component, config=config or {})
    examples = make_examples(nlp)
    for eg in examples:  # gold POS on the input docs, as spacy-senna.Corpus.v1 provides
        copy_inputs(eg, ["tag_"])
    optimizer = nlp.initialize(lambda: examples)
    losses = []
    for _ in range(steps):
        step = {}
        nlp.update(examples, sgd=optimizer, losses=step)
        losses.append(step[component])
    return nlp, losses


def spans_of(doc, key):
    return [(s.start, s.end, s.label_) for s in doc.spans[key]]


@pytest.fixture(scope="module")
def ner():
    return train("senna_ner")


@pytest.fixture(scope="module")
def chunker():
    return train("senna_chunker", steps=80)


def test_ner_overfits_and_reports_probabilities(ner):
    nlp, losses = ner
    assert losses[-1] < losses[0] * 0.05
    for text, _, ents, _ in SENTENCES:
        doc = nlp(text)
        assert [(e.start, e.end, e.label_) for e in doc.ents] == ents
        scores = doc.spans["senna_ents"].attrs["scores"]
        assert len(scores) == len(ents) and numpy.all((scores > 0.5) & (scores <= 1.0))


def test_chunker_overfits_with_gold_pos_cascade(chunker):
    nlp, losses = chunker
    assert losses[-1] < losses[0] * 0.05
    for text, tags, _, chunks in SENTENCES:
        doc = nlp.make_doc(text)
        for token, tag in zip(doc, tags):
            token.tag_ = tag
        assert spans_of(nlp(doc), "chunks") == [(s, e, lab) for s, e, lab in chunks]


def test_span_probability_matches_the_crf():
    nlp, _ = train("senna_ner", steps=3)
    doc = nlp("John Smith visited Paris today")
    ner_pipe = nlp.get_pipe("senna_ner")
    crf = spacy_senna.models.get_net(ner_pipe.model).criterion
    scores = ner_pipe.model.predict([doc])
    marginals = crf.marginals(scores.emissions, scores.lengths)[0]
    for span, score in zip(doc.spans["senna_ents"], doc.spans["senna_ents"].attrs["scores"]):
        if len(span) == 1:  # a one-token span's probability is the U- tag's marginal
            assert score == pytest.approx(
                marginals[span.start, ner_pipe.tag_index[f"U-{span.label_}"]].item(), abs=1e-5
            )


def test_save_load_and_pipe_equal_call(ner):
    nlp, _ = ner
    texts = [s[0] for s in SENTENCES] + ["", "Paris John", "Berlin " * 40]
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


def test_sentences_are_labelled_separately(ner):
    nlp, _ = ner
    first, second = SENTENCES[0][0], SENTENCES[1][0]
    doc = nlp.make_doc(f"{first} {second}")
    n_first = len(nlp.make_doc(first))
    for token in doc:
        token.is_sent_start = token.i in (0, n_first)
    ents = [(e.start, e.end, e.label_) for e in nlp(doc).ents]
    expected = SENTENCES[0][2] + [(s + n_first, e + n_first, lab) for s, e, lab in SENTENCES[1][2]]
    assert ents == expected
    assert len(doc.spans["senna_ents"].attrs["scores"]) == len(expected)


def test_chunker_warns_when_its_pos_input_is_missing(chunker):
    nlp, _ = chunker
    nlp.get_pipe("senna_chunker")._warned_inputs = False
    with pytest.warns(UserWarning, match="senna_tagger"):
        nlp("Mary saw the big house")


def test_kbest_keeps_alternative_analyses():
    nlp, _ = train("senna_ner", steps=20, config={"kbest": 3})
    doc = nlp("John Smith visited Paris today")
    assert "senna_ents_2" in doc.spans and "senna_ents_3" in doc.spans
    assert len(doc.spans["senna_ents_2"].attrs["scores"]) == len(doc.spans["senna_ents_2"])


def test_evaluate_reports_span_scores(chunker, ner):
    nlp, _ = chunker
    scores = nlp.evaluate(make_examples(nlp))
    assert scores["spans_chunks_f"] == 1.0 and "NP" in scores["spans_chunks_per_type"]
    nlp, _ = ner
    assert nlp.evaluate(make_examples(nlp))["ents_f"] == 1.0


def test_overlapping_gold_spans_warn():
    nlp = English()
    nlp.add_pipe("senna_chunker")
    examples = make_examples(nlp)
    ref = examples[0].reference
    ref.spans["chunks"] = list(ref.spans["chunks"]) + [Span(ref, 0, 3, label="NP")]
    nlp.initialize(lambda: examples)
    with pytest.warns(UserWarning, match="overlapping gold spans"):
        nlp.update(examples)


def test_gazetteer_longest_multiword_match(tmp_path):
    path = tmp_path / "gaz.lst.gz"
    with gzip.open(path, "wt") as f:
        f.write("LOC new york\nLOC new york city\nORG new york times\nPER york\n")
    entries = read_gazetteer(path, ["LOC", "ORG", "PER"])
    nlp = English()
    matcher = GazetteerMatcher(entries, ["LOC", "ORG", "PER"], nlp.vocab)
    flags = matcher.flags(nlp.make_doc("I read the New York Times in new YORK city"))
    assert flags[:, 0].tolist() == [0, 0, 0, 1, 1, 0, 0, 1, 1, 1]  # LOC
    assert flags[:, 1].tolist() == [0, 0, 0, 1, 1, 1, 0, 0, 0, 0]  # ORG
    assert flags[:, 2].tolist() == [0, 0, 0, 0, 1, 0, 0, 0, 1, 0]  # PER: york


def test_gazetteer_drop_matches_only_in_training():
    nlp = English()
    feature = GazetteerFeature(None, ["LOC"], width=5, drop_matches=0.5)
    feature.set_entries({"LOC": {"paris", "new york"}})
    doc = nlp.make_doc("Paris and New York and Paris and New York and Paris " * 20)
    yes = feature.lexicons[0].get("YES")
    full = feature.extract(doc)
    assert (feature.extract(doc) == full).all()
    assert (full == yes).sum() == 20 * 7  # 3 x Paris + 2 x New York per repeat
    noisy = feature.extract(doc, train=True)
    kept = int((noisy == yes).sum())
    assert 0.25 * 140 < kept < 0.75 * 140
    assert ((noisy == yes) <= (full == yes)).all()
    # a multi-word match is dropped or kept as a whole
    starts = [i for i, t in enumerate(doc) if t.text == "New"]
    assert all(noisy[i, 0] == noisy[i + 1, 0] for i in starts)
    with pytest.raises(ValueError, match="drop_matches"):
        GazetteerFeature(None, ["LOC"], width=5, drop_matches=1.0)


def test_gazetteer_bad_files(tmp_path):
    bad = tmp_path / "bad.lst"
    bad.write_text("LOC paris\nCITY rome\n")
    with pytest.warns(UserWarning, match=r"bad.lst: skipped 1 line.*line 2 \(CITY\)"):
        assert read_gazetteer(bad, ["LOC"]) == {"LOC": {"paris"}}
    malformed = tmp_path / "malformed.lst"
    malformed.write_text("LOC paris\nPER\n")
    with pytest.raises(ValueError, match=r"malformed.lst:2: expected 'TYPE word"):
        read_gazetteer(malformed, ["LOC", "PER"])
    empty = tmp_path / "empty.lst"
    empty.write_text("\n")
    with pytest.raises(ValueError, match="no entries"):
        read_gazetteer(empty, ["LOC"])


def test_ner_with_gazetteer_saves_entries(tmp_path):
    gaz = tmp_path / "gaz.lst"
    gaz.write_text("PER john smith\nLOC paris\n")
    feature = {
        "@misc": "spacy-senna.GazetteerFeature.v1",
        "path": str(gaz),
        "types": ["LOC", "PER"],
    }
    nlp, _ = train("senna_ner", steps=30, config={"model": {"features": {"gazetteer": feature}}})
    gaz.unlink()
    with make_tempdir() as d:
        nlp.to_disk(d)
        loaded = spacy.load(d)
    text = "John Smith visited Paris today"
    assert [e.text for e in loaded(text).ents] == [e.text for e in nlp(text).ents]
    features = loaded.get_pipe("senna_ner").model.attrs["featurizer"].features
    assert features["gazetteer"].entries["PER"] == {"john smith"}


def test_build_gazetteer_from_corpus(tmp_path):
    from spacy.tokens import DocBin

    nlp = English()
    docs = [ex.reference for ex in make_examples(nlp)]
    DocBin(docs=docs).to_disk(tmp_path / "train.spacy")
    n = build_gazetteer(tmp_path / "train.spacy", tmp_path / "gaz.lst")
    assert n == 4
    assert read_gazetteer(tmp_path / "gaz.lst", ["LOC", "PER"])["PER"] == {"john smith", "mary"}
