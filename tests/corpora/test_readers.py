"""spacy-senna.Corpus.v1 with shuffle: every doc once per pass, a new order each pass,
and a streamed `spacy train` (max_epochs = -1) whose components still read the whole
training corpus for their labels and dictionaries."""

import random
import subprocess
import sys
from pathlib import Path

import pytest
import spacy
from spacy.lang.en import English
from spacy.tokens import Doc, DocBin
from spacy.training import Example
from spacy.util import load_config

import spacy_senna  # noqa: F401
from spacy_senna.corpora.readers import create_corpus_with_inputs

CONFIGS = Path(__file__).resolve().parents[2] / "configs"


def _docs(nlp, n, start=0):
    docs = []
    for i in range(start, start + n):
        doc = Doc(nlp.vocab, words=[f"w{i}", "saw", "Paris"])
        doc[0].tag_ = "NN"
        docs.append(doc)
    return docs


@pytest.fixture
def corpus_dir(tmp_path):
    """Two .spacy files (20 and 15 docs, an empty doc in the first)."""
    nlp = English()
    folder = tmp_path / "corpus"
    folder.mkdir()
    DocBin(docs=_docs(nlp, 10) + [Doc(nlp.vocab, words=[])] + _docs(nlp, 10, 10)).to_disk(
        folder / "a.spacy"
    )
    DocBin(docs=_docs(nlp, 15, 20)).to_disk(folder / "b.spacy")
    return folder


def _texts(reader, nlp):
    return [eg.reference.text for eg in reader(nlp)]


def test_shuffled_reader_gives_every_doc_once_per_pass_in_new_orders(corpus_dir):
    nlp = English()
    plain = create_corpus_with_inputs(corpus_dir, copy_attrs=["tag_"], gold_preproc=True)
    shuffled = create_corpus_with_inputs(
        corpus_dir, copy_attrs=["tag_"], gold_preproc=True, shuffle=True
    )
    random.seed(0)
    first, second = _texts(shuffled, nlp), _texts(shuffled, nlp)
    assert sorted(first) == sorted(second) == sorted(_texts(plain, nlp))
    assert len(first) == 35
    assert first != second
    eg = next(iter(shuffled(nlp)))
    assert eg.predicted[0].tag_ == "NN"  # copy_attrs still applies


def test_shuffled_reader_applies_limit_in_file_order_first(corpus_dir):
    nlp = English()
    in_file_order = _texts(create_corpus_with_inputs(corpus_dir, gold_preproc=True), nlp)
    shuffled = create_corpus_with_inputs(corpus_dir, gold_preproc=True, limit=12, shuffle=True)
    # the first 12 documents; spacy.Corpus itself reads one more from each further file
    assert sorted(_texts(shuffled, nlp)) == sorted(in_file_order[:12])


def test_initialize_reads_labels_and_words_from_the_given_corpus(span_examples):
    examples = span_examples(English())
    all_labels = {ent.label_ for eg in examples for ent in eg.reference.ents}

    def initialized(corpus):
        nlp = English()
        ner = nlp.add_pipe("senna_ner")
        # what spaCy passes a streamed run: a sample, here one with a person only
        doc = nlp.make_doc("Mary saw it")
        sample = [Example.from_dict(doc, {"entities": ["U-PER", "O", "O"]})]
        ner.initialize(lambda: sample, nlp=nlp, corpus=corpus)
        return set(ner.labels), ner.model.attrs["featurizer"].features["word"].lexicons[0]

    labels, words = initialized(None)
    assert labels == {"PER"}
    all_labels_read, all_words = initialized(lambda nlp: iter(examples * 2))
    assert all_labels_read == all_labels
    assert "berlin" in all_words and "berlin" not in words


@pytest.mark.slow
def test_spacy_train_streams_the_corpus_and_initializes_from_all_of_it(tmp_path, span_examples):
    nlp = English()
    DocBin(docs=[eg.reference for eg in span_examples(nlp)] * 3).to_disk(tmp_path / "ner.spacy")
    config = load_config(CONFIGS / "ner.cfg")
    config["training"]["max_epochs"] = -1
    config["corpora"]["train"]["@readers"] = "spacy-senna.Corpus.v1"
    config["corpora"]["train"]["copy_attrs"] = []
    config["corpora"]["train"]["shuffle"] = True
    config["initialize"]["components"]["senna_ner"] = {"corpus": "${corpora.train}"}
    config.to_disk(tmp_path / "stream.cfg")
    out = tmp_path / "out"
    options = {
        "paths.train": tmp_path / "ner.spacy",
        "paths.dev": tmp_path / "ner.spacy",
        "training.max_steps": 4,
        "training.eval_frequency": 2,
        "output": out,
    }
    cmd = [sys.executable, "-m", "spacy", "train", str(tmp_path / "stream.cfg")]
    cmd += [arg for key, value in options.items() for arg in (f"--{key}", str(value))]
    subprocess.run(cmd, check=True, capture_output=True, cwd=tmp_path)
    loaded = spacy.load(out / "model-last")
    all_labels = {ent.label_ for eg in span_examples(nlp) for ent in eg.reference.ents}
    assert set(loaded.get_pipe("senna_ner").labels) == all_labels
