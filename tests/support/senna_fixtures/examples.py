"""Training examples (tags, chunks, entities, SRL frames), a small trained senna pipeline
(tagger -> chunker -> ner -> srl) saved to disk, and a count of a model's network calls."""

from pathlib import Path

import pytest
from spacy.lang.en import English
from spacy.tokens import Doc, Span
from spacy.training import Example
from spacy.util import fix_random_seed

# SRL: gold frames on a Doc, and the frames a Doc holds (the SRL component, scorer, converter)


def _srl_reference_doc(vocab, words, tags, frames):
    doc = Doc(vocab, words=words, tags=tags)
    doc.spans["srl_predicates"] = [Span(doc, p, p + 1, label="x") for p in frames]
    for p, args in frames.items():
        doc.spans[f"srl:{p}"] = [Span(doc, s, e, label=lab) for lab, s, e in args]
    return doc


def _srl_frames_of(doc):
    return {
        f.predicate.i: sorted((s.label_, s.start, s.end) for s in f.arguments)
        for f in doc._.srl_frames
    }


@pytest.fixture(scope="session")
def srl_reference_doc():
    """`srl_reference_doc(vocab, words, tags, {predicate: [(label, start, end), ...]})`: a
    Doc with POS tags, the predicates in `srl_predicates` and each frame in `srl:<i>`."""
    return _srl_reference_doc


@pytest.fixture(scope="session")
def srl_frames_of():
    """`srl_frames_of(doc)`: {predicate index: sorted [(label, start, end), ...]} of
    `doc._.srl_frames`."""
    return _srl_frames_of


# NER and chunking: (text, POS tags, entities, chunks) of two sentences, as training examples

SPAN_SENTENCES = [
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


def _span_examples(nlp):
    examples = []
    for text, tags, ents, chunks in SPAN_SENTENCES:
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


@pytest.fixture(scope="session")
def span_sentences():
    """[(text, POS tags, [(start, end, entity type)], [(start, end, chunk type)])]."""
    return SPAN_SENTENCES


@pytest.fixture(scope="session")
def span_examples():
    """`span_examples(nlp)`: Examples of `span_sentences`, the reference holding the POS
    tags, the entities (doc.ents) and the chunks (doc.spans["chunks"])."""
    return _span_examples


# POS tagging: two tagged sentences, as training examples

TAGGED_SENTENCES = [
    ("I like green eggs", ["PRP", "VBP", "JJ", "NNS"]),
    ("Eat blue ham", ["VB", "JJ", "NN"]),
]


def _tagger_examples(nlp):
    return [Example.from_dict(nlp.make_doc(t), {"tags": tags}) for t, tags in TAGGED_SENTENCES]


@pytest.fixture(scope="session")
def tagged_sentences():
    """[(text, POS tags)] of two sentences."""
    return TAGGED_SENTENCES


@pytest.fixture(scope="session")
def tagger_examples():
    """`tagger_examples(nlp)`: Examples of `tagged_sentences` (gold tags)."""
    return _tagger_examples


# -- a small trained senna pipeline (tagger -> chunker -> ner -> srl), saved to disk --

# text, POS, chunks, entities, SRL frames {predicate: [(label, start, end)]} (token offsets)
PIPELINE_SENTENCES = [
    (
        "John Smith visited Paris today.",
        "NNP NNP VBD NNP NN .",
        [(0, 2, "NP"), (2, 3, "VP"), (3, 4, "NP"), (4, 5, "NP")],
        [(0, 2, "PER"), (3, 4, "LOC")],
        {2: [("A0", 0, 2), ("V", 2, 3), ("A1", 3, 4), ("AM-TMP", 4, 5)]},
    ),
    (
        "Mary saw the big house in Berlin.",
        "NNP VBD DT JJ NN IN NNP .",
        [(0, 1, "NP"), (1, 2, "VP"), (2, 5, "NP"), (5, 6, "PP"), (6, 7, "NP")],
        [(0, 1, "PER"), (6, 7, "LOC")],
        {1: [("A0", 0, 1), ("V", 1, 2), ("A1", 2, 5), ("AM-LOC", 5, 7)]},
    ),
    (
        "Acme Corp hired Anna Lee and left London.",
        "NNP NNP VBD NNP NNP CC VBD NNP .",
        [(0, 2, "NP"), (2, 3, "VP"), (3, 5, "NP"), (6, 7, "VP"), (7, 8, "NP")],
        [(0, 2, "ORG"), (3, 5, "PER"), (7, 8, "LOC")],
        {
            2: [("A0", 0, 2), ("V", 2, 3), ("A1", 3, 5)],
            6: [("A0", 0, 2), ("V", 6, 7), ("A1", 7, 8)],
        },
    ),
    (
        "The big dog barked.",
        "DT JJ NN VBD .",
        [(0, 3, "NP"), (3, 4, "VP")],
        [],
        {3: [("A0", 0, 3), ("V", 3, 4)]},
    ),
]
PIPELINE_TRAIN_STEPS = 60


def _pipeline_examples(nlp):
    examples = []
    for text, tags, chunks, ents, frames in PIPELINE_SENTENCES:
        words = [t.text for t in nlp.make_doc(text)]
        tags = tags.split()
        assert len(words) == len(tags), (words, tags)
        reference = Doc(nlp.vocab, words=words, tags=tags)
        reference.spans["chunks"] = [Span(reference, s, e, label=lab) for s, e, lab in chunks]
        reference.ents = [Span(reference, s, e, label=lab) for s, e, lab in ents]
        for predicate, arguments in frames.items():
            reference.spans[f"srl:{predicate}"] = [
                Span(reference, s, e, label=lab) for lab, s, e in arguments
            ]
        # gold POS on the input docs: the chunker and SRL read them in training
        examples.append(Example(Doc(nlp.vocab, words=words, tags=tags), reference))
    return examples


@pytest.fixture(scope="session")
def pipeline_dir(tmp_path_factory) -> Path:
    """The trained pipeline, saved; it reproduces PIPELINE_SENTENCES' annotations.

    Seeded: the model must not depend on which tests ran before it was built.
    """
    fix_random_seed(0)
    nlp = English()
    for name in ("senna_tagger", "senna_chunker", "senna_ner", "senna_srl"):
        nlp.add_pipe(name)
    examples = _pipeline_examples(nlp) * 2  # every word seen twice: the word features' min_freq
    optimizer = nlp.initialize(lambda: examples)
    for _ in range(PIPELINE_TRAIN_STEPS):
        nlp.update(examples, sgd=optimizer)
    path = tmp_path_factory.mktemp("pipeline") / "senna"
    nlp.to_disk(path)
    return path


@pytest.fixture
def network_calls(monkeypatch):
    """`network_calls(model)`: a list that gets the number of inputs of each of `model`'s
    `predict` calls from then on, to the end of the test."""

    def watch(model):
        calls = []
        predict = type(model).predict

        def counted(self, inputs):
            if self is model:
                calls.append(len(inputs))
            return predict(self, inputs)

        monkeypatch.setattr(type(model), "predict", counted)
        return calls

    return watch
