"""senna_sentencizer decides sentence starts exactly as spaCy's sentencizer, for a whole
batch at once."""

import random

import pytest
import spacy
from spacy.lang.en import English
from spacy.tokens import Doc

from spacy_senna.pipeline.sentences import SHORT_DOC  # registers the factory too

TEXTS = [
    "The cat sat. The dog ran!",
    '"Stop!" he said. Then he left... And?? Yes.',
    "No period at the end",
    ". Leading punctuation. (A bracket.) Next one.",
    "Trailing stops...",
    "",
    "   ",
    "Mr. Smith went to Washington. He arrived at 5 p.m. on Monday.",
    "Dots 。and fullwidth！marks？ end here",
]
TOKENS = ["word", "Cap", ".", "!", "?", ",", '"', ")", "(", "...", "。", "-", " ", "\n"]


def pipelines(**config):
    spacy_nlp, senna_nlp = English(), English()
    spacy_nlp.add_pipe("sentencizer", config=config)
    senna_nlp.add_pipe("senna_sentencizer", config=config)
    return spacy_nlp, senna_nlp


def starts(docs):
    return [[t.is_sent_start for t in doc] for doc in docs]


def random_docs(vocab, n, seed):
    rng = random.Random(seed)
    docs = []
    for _ in range(n):
        words = [rng.choice(TOKENS) for _ in range(rng.randint(0, 30))]
        spaces = [rng.random() < 0.5 for _ in words]
        docs.append(Doc(vocab, words=words, spaces=spaces))
    return docs


@pytest.mark.parametrize("batch_size", [1, 3, 1000])
def test_same_sentences_as_spacy_on_texts(batch_size):
    spacy_nlp, senna_nlp = pipelines()
    expected = starts(spacy_nlp.pipe(TEXTS))
    assert starts(senna_nlp.pipe(TEXTS, batch_size=batch_size)) == expected
    assert starts(senna_nlp(text) for text in TEXTS) == expected


@pytest.mark.parametrize("config", [{}, {"punct_chars": [",", "-"]}])
def test_same_sentences_as_spacy_on_random_tokens(config):
    spacy_nlp, senna_nlp = pipelines(**config)
    docs = random_docs(spacy_nlp.vocab, 300, seed=len(config))
    expected = starts(spacy_nlp.pipe([d.copy() for d in docs]))
    assert starts(senna_nlp.pipe([d.copy() for d in docs], batch_size=64)) == expected
    # one doc at a time (a short doc is decided token by token, a long one with arrays)
    long_doc = Doc(spacy_nlp.vocab, words=[w for d in docs[:20] for w in d.text.split()])
    assert starts(senna_nlp(d.copy()) for d in [*docs, long_doc]) == starts(
        spacy_nlp(d.copy()) for d in [*docs, long_doc]
    )
    assert len(long_doc) > SHORT_DOC
    assert any(sum(map(bool, s)) > 2 for s in expected)  # the rule was exercised


@pytest.mark.parametrize("overwrite", [False, True])
def test_existing_sentence_starts_are_kept_unless_overwrite(overwrite):
    spacy_nlp, senna_nlp = pipelines(overwrite=overwrite)
    outputs = []
    for nlp in (spacy_nlp, senna_nlp):
        doc = nlp.make_doc("One two. Three four five. Six")
        doc[1].is_sent_start = True
        doc[4].is_sent_start = False
        outputs.append(starts(nlp.pipe([doc])))
    assert outputs[0] == outputs[1]


def test_settings_survive_serialization(tmp_path):
    _, senna_nlp = pipelines(punct_chars=[";"], overwrite=True)
    senna_nlp.to_disk(tmp_path)
    loaded = spacy.load(tmp_path)
    sentencizer = loaded.get_pipe("senna_sentencizer")
    assert sentencizer.punct_chars == {";"} and sentencizer.overwrite
    assert [s.text for s in loaded("a; b c; d").sents] == ["a;", "b c;", "d"]
