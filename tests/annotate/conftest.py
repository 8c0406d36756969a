"""A small trained senna pipeline (tagger -> chunker -> ner -> srl) saved to disk, shared by
the annotate tests, and helpers to write input files."""

from pathlib import Path

import pytest
from spacy.lang.en import English
from spacy.tokens import Doc, Span
from spacy.training import Example

import spacy_senna  # noqa: F401

# text, POS, chunks, entities, SRL frames {predicate: [(label, start, end)]} (token offsets)
SENTENCES = [
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
TRAIN_STEPS = 60


def make_examples(nlp):
    examples = []
    for text, tags, chunks, ents, frames in SENTENCES:
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
    """The trained pipeline, saved; it reproduces SENTENCES' annotations."""
    nlp = English()
    for name in ("senna_tagger", "senna_chunker", "senna_ner", "senna_srl"):
        nlp.add_pipe(name)
    examples = make_examples(nlp) * 2  # every word seen twice: the word features' min_freq
    optimizer = nlp.initialize(lambda: examples)
    for _ in range(TRAIN_STEPS):
        nlp.update(examples, sgd=optimizer)
    path = tmp_path_factory.mktemp("pipeline") / "senna"
    nlp.to_disk(path)
    return path


@pytest.fixture
def write(tmp_path):
    """write(name, text or bytes) -> path of a new input file under tmp_path/inputs."""

    def _write(name, content):
        path = tmp_path / "inputs" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, str):
            content = content.encode("utf8")
        path.write_bytes(content)
        return path

    return _write
