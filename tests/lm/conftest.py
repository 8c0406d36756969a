"""Fixtures of the LM tests: a tiny generated corpus, a fast configuration, a trained run."""

import random

import pytest

from spacy_senna.lm.pretrain import pretrain
from spacy_senna.lm.settings import PretrainConfig

NOUNS = ["cat", "dog", "bird", "horse", "mouse", "fox", "cow", "goat"]
VERBS = ["sees", "chases", "likes", "bites", "finds"]
ADJS = ["big", "small", "red", "old", "young"]
PLACES = ["Paris", "London", "Berlin", "Rome", "Madrid"]


def _make_corpus(path, n_lines=1500, seed=0):
    """A tiny language with structure a window model can learn."""
    rng = random.Random(seed)
    lines = []
    for _ in range(n_lines):
        lines.append(
            f"The {rng.choice(ADJS)} {rng.choice(NOUNS)} {rng.choice(VERBS)} a "
            f"{rng.choice(NOUNS)} in {rng.choice(PLACES)} in {rng.randint(1900, 2020)} ."
        )
    path.write_text("\n".join(lines) + "\n", encoding="utf8")
    return path


def _config(**overrides):
    settings = {
        "vocab_size": 1000,
        "batch_size": 64,
        "negatives": 4,
        "validation_words": 1000,
        "eval_every_words": 2000,
        "checkpoint_every_seconds": 0,
        "learning_rate": 0.1,
        "embed_init": 1.0,
        "epochs": 0,
        "max_words": 4000,
        "progress": False,
        "threads": 1,
        # exact resumes and seeds hold on the CPU (CUDA's atomic adds reorder sums);
        # test_cuda.py runs the GPU
        "device": "cpu",
    }
    settings.update(overrides)
    return PretrainConfig(**settings)


@pytest.fixture
def config():
    """`config(**overrides)`: a PretrainConfig for runs of a few seconds."""
    return _config


@pytest.fixture(scope="module")
def nouns():
    """The nouns of the generated corpus."""
    return NOUNS


@pytest.fixture(scope="module")
def corpus_path(tmp_path_factory):
    return _make_corpus(tmp_path_factory.mktemp("text") / "corpus.txt")


@pytest.fixture(scope="module")
def trained(tmp_path_factory, corpus_path):
    """(output directory, metadata) of a 30k-word run on `corpus_path`."""
    out = tmp_path_factory.mktemp("runs") / "lm"
    meta = pretrain([corpus_path], out, _config(max_words=30000, eval_every_words=5000))
    return out, meta
