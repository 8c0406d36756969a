"""Fixtures of the component tests: senna_ner and senna_chunker trained on the conftest's
`span_examples` (trained once per session: training is the slow part)."""

import pytest
from spacy.lang.en import English
from spacy.util import fix_random_seed

import spacy_senna  # noqa: F401
from spacy_senna.corpora.readers import copy_inputs
from spacy_senna.pipeline import batching


@pytest.fixture(scope="session")
def train_span_labeler(span_examples):
    """`train_span_labeler(component, steps=50, config=None)`: (nlp, losses per step) of a
    blank English pipeline with `component` trained on `span_examples`, gold POS given.
    Seeded: the model must not depend on which tests ran before it was built."""

    def train(component, steps=50, config=None):
        fix_random_seed(0)
        nlp = English()
        nlp.add_pipe(component, config=config or {})
        examples = span_examples(nlp)
        for eg in examples:  # gold POS on the input docs, as spacy-senna.Corpus.v1 provides
            copy_inputs(eg, ["tag_"])
        optimizer = nlp.initialize(lambda: examples)
        losses = []
        for _ in range(steps):
            step = {}
            nlp.update(examples, sgd=optimizer, losses=step)
            losses.append(step[component])
        return nlp, losses

    return train


@pytest.fixture(scope="session")
def ner(train_span_labeler):
    return train_span_labeler("senna_ner")


@pytest.fixture(scope="session")
def chunker(train_span_labeler):
    return train_span_labeler("senna_chunker", steps=80)


@pytest.fixture
def call_bound(monkeypatch):
    """`call_bound(floats)`: every model call within `floats` working floats, on a CPU and
    on a GPU alike (`batching.call_floats`), for this test only."""

    def bound(floats: int) -> None:
        for name in ("MAX_PREDICT_FLOATS", "GPU_PREDICT_FLOATS"):
            monkeypatch.setattr(batching, name, floats)

    return bound
