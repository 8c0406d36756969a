"""All four components on random token sequences (unicode, whitespace tokens, empty docs,
long docs): valid annotations every time, and nlp.pipe equal to nlp()."""

import numpy
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from spacy.lang.en import English
from spacy.tokens import Doc, Span
from spacy.training import Example

from spacy_senna.pipeline.whitespace import SPACE_TAG

TRAIN = [
    ("John Smith visited Paris today", "NNP NNP VBD NNP NN", [(0, 2, "PER"), (3, 4, "LOC")]),
    ("Mary saw the big house in Berlin", "NNP VBD DT JJ NN IN NNP", [(0, 1, "PER"), (6, 7, "LOC")]),
]


@pytest.fixture(scope="module")
def nlp():
    nlp = English()
    for name in ("senna_tagger", "senna_chunker", "senna_ner", "senna_srl"):
        nlp.add_pipe(name)
    examples = []
    for text, tag_string, ents in TRAIN:
        words, tags = text.split(), tag_string.split()
        ref = Doc(nlp.vocab, words=words, tags=tags)
        ref.ents = [Span(ref, s, e, label=label) for s, e, label in ents]
        ref.spans["chunks"] = [Span(ref, s, e, label=label) for s, e, label in ents]
        verb = tags.index("VBD")
        ref.spans[f"srl:{verb}"] = [Span(ref, 0, verb, "A0"), Span(ref, verb, verb + 1, "V")]
        examples.append(Example(Doc(nlp.vocab, words=words), ref))
    optimizer = nlp.initialize(lambda: examples)
    for _ in range(15):
        nlp.update(examples, sgd=optimizer)
    return nlp


token = st.one_of(
    st.sampled_from(["John", "saw", "Paris", ".", "the", "VBD", "srl:1", "0"]),
    st.sampled_from([" ", "\n", "\t", "\u00a0", "\u200b", "  "]),
    st.text(min_size=1, max_size=12),
)
docs = st.lists(
    st.tuples(st.lists(token, max_size=60), st.booleans()), min_size=1, max_size=5
) | st.just([(["Paris"] * 700, False)])


def make(nlp, words, with_sentences):
    starts = [i % 7 == 0 for i in range(len(words))] if with_sentences and words else None
    return Doc(nlp.vocab, words=words, sent_starts=starts)


def check(doc, nlp):
    labels = nlp.get_pipe("senna_tagger").labels
    assert all(t.tag_ == SPACE_TAG if t.is_space else t.tag_ in labels for t in doc)
    for key in ("chunks", "senna_ents"):
        group = doc.spans[key]
        scores = numpy.asarray(group.attrs["scores"])
        assert len(scores) == len(group) and ((scores >= 0) & (scores <= 1)).all()
        ends = [0] + [s.end for s in group]
        assert all(s.start >= end for s, end in zip(group, ends))  # ordered, no overlap
    entities = [(s.start, s.end) for s in doc.spans["senna_ents"]]
    assert [(e.start, e.end) for e in doc.ents] == entities
    for predicate, arguments in doc._.srl_frames:
        assert predicate.tag_.startswith("V")
        assert all(0 <= a.start < a.end <= len(doc) for a in arguments)


def annotations(doc):
    spans = {k: [(s.start, s.end, s.label_) for s in g] for k, g in doc.spans.items()}
    return [t.tag_ for t in doc], spans


@settings(
    max_examples=25,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(batch=docs)
def test_random_token_sequences_get_valid_annotations(nlp, batch):
    one_by_one = [nlp(make(nlp, words, sents)) for words, sents in batch]
    piped = list(nlp.pipe([make(nlp, words, sents) for words, sents in batch], batch_size=3))
    for a, b in zip(one_by_one, piped):
        check(a, nlp)
        assert annotations(a) == annotations(b)
