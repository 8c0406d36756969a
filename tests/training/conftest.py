"""Fixtures of the training-tool tests: a senna_tagger pipeline trained a few steps."""

import pytest
from spacy.lang.en import English
from spacy.util import fix_random_seed


@pytest.fixture
def trained_tagger(tagger_examples):
    """`trained_tagger(steps)`: a senna_tagger pipeline updated `steps` times on the tagged
    sentences (seed 0), its examples and its optimizer."""

    def train(steps: int):
        fix_random_seed(0)
        nlp = English()
        nlp.add_pipe("senna_tagger")
        examples = tagger_examples(nlp)
        optimizer = nlp.initialize(lambda: examples)
        for _ in range(steps):
            nlp.update(examples, sgd=optimizer)
        return nlp, examples, optimizer

    return train
