"""A senna component with `lstm_width`: it tags a word from words outside its window,
and keeps the guarantees of every component (nlp.pipe equals nlp(), save/load)."""

import pytest
import spacy
from spacy.lang.en import English
from spacy.tokens import Doc
from spacy.training import Example
from spacy.util import fix_random_seed, make_tempdir

import spacy_senna  # noqa: F401

# the first word's tag is decided by the last word, four words away: outside the window
# of 5, and the tags between are the same, so no CRF path can carry it either
SENTENCES = [
    ("open the big old door now".split(), ["A", "F", "F", "F", "F", "N"]),
    ("open the big old door later".split(), ["B", "F", "F", "F", "F", "T"]),
]


def _train(lstm_width: int, steps: int = 60, lstm_window: bool = True):
    fix_random_seed(0)
    nlp = English()
    model = {"lstm_width": lstm_width, "lstm_window": lstm_window}
    nlp.add_pipe("senna_tagger", config={"model": model})
    examples = [
        Example.from_dict(Doc(nlp.vocab, words=words), {"tags": tags}) for words, tags in SENTENCES
    ]
    optimizer = nlp.initialize(lambda: examples)
    for _ in range(steps):
        nlp.update(examples, sgd=optimizer)
    return nlp


def _tags(nlp, words) -> list:
    return [t.tag_ for t in nlp(Doc(nlp.vocab, words=words))]


@pytest.mark.parametrize("lstm_window", [True, False])
def test_the_lstm_tags_a_word_from_outside_its_window(lstm_window):
    nlp = _train(lstm_width=8, lstm_window=lstm_window)
    for words, tags in SENTENCES:
        assert _tags(nlp, words) == tags
    window_only = _train(lstm_width=0)
    first = {_tags(window_only, words)[0] for words, _ in SENTENCES}
    assert len(first) == 1


@pytest.mark.parametrize("lstm_window", [True, False])
def test_lstm_pipe_equals_call_and_survives_save_load(lstm_window):
    nlp = _train(lstm_width=8, steps=20, lstm_window=lstm_window)
    texts = [words for words, _ in SENTENCES] + [["door"], [], "the door now open".split()]
    docs = [Doc(nlp.vocab, words=words) for words in texts]
    expected = [[t.tag_ for t in nlp(d.copy())] for d in docs]
    assert expected == [[t.tag_ for t in d] for d in nlp.pipe(d.copy() for d in docs)]
    assert expected == [[t.tag_ for t in d] for d in nlp.pipe(d.copy() for d in docs[::-1])][::-1]
    with make_tempdir() as path:
        nlp.to_disk(path)
        loaded = spacy.load(path)
    assert expected == [[t.tag_ for t in loaded(d.copy())] for d in docs]
