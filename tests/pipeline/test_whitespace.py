"""Whitespace tokens (extra spaces, newlines) are not words: every component labels a doc
with them as it labels the same doc without them, and they get no label of their own."""

import pytest
import spacy
from spacy.tokens import Doc, Span, Token
from spacy.training import Example

from spacy_senna.pipeline.whitespace import SPACE_TAG, words_only

TEXT = "Acme Corp hired Anna Lee and left London."
# the same words with whitespace tokens at the start, inside an entity, between two
# sentences' words and at the end
SPACED = "\n Acme  Corp hired Anna Lee \n\n and left London.  "


@pytest.fixture(scope="module")
def nlp(pipeline_dir):
    return spacy.load(pipeline_dir)


def words_and_labels(doc):
    """Per non-whitespace token: text, tag; the chunks, entities and frames as texts with
    the whitespace inside them collapsed."""

    def text(span):
        return " ".join(t.text for t in span if not t.is_space)

    frames = {
        doc[int(key.split(":")[1])].text: [(text(s), s.label_) for s in group]
        for key, group in doc.spans.items()
        if key.startswith("srl:")
    }
    return (
        [(t.text, t.tag_) for t in doc if not t.is_space],
        [(text(s), s.label_) for s in doc.spans["chunks"]],
        [(text(e), e.label_) for e in doc.ents],
        frames,
    )


def test_whitespace_tokens_do_not_change_the_labels(nlp):
    plain, spaced = nlp(TEXT), nlp(SPACED)
    assert sum(t.is_space for t in spaced) == 4
    assert words_and_labels(spaced) == words_and_labels(plain)
    assert words_and_labels(plain)[2] == [
        ("Acme Corp", "ORG"),
        ("Anna Lee", "PER"),
        ("London", "LOC"),
    ]


def test_whitespace_tokens_get_the_space_tag_and_no_span_of_their_own(nlp):
    doc = nlp(SPACED)
    assert [t.tag_ for t in doc if t.is_space] == [SPACE_TAG] * 4
    spans = [*doc.spans["chunks"], *doc.ents]
    spans += [s for key, group in doc.spans.items() if key.startswith("srl:") for s in group]
    assert spans and all(not s[0].is_space and not s[-1].is_space for s in spans)
    assert "Acme  Corp" in [e.text for e in doc.ents]  # a span stretches over the inside


def test_pipe_equals_call_with_whitespace_tokens(nlp):
    texts = [SPACED, "   ", "", TEXT, "\n\nThe big  dog barked."]
    piped = [words_and_labels(doc) for doc in nlp.pipe(texts, batch_size=2)]
    assert piped == [words_and_labels(nlp(text)) for text in texts]
    only_space = nlp("  \n ")
    assert [t.tag_ for t in only_space] == [SPACE_TAG] and not only_space.ents


def test_the_copy_without_whitespace_keeps_inputs_and_sentences(nlp):
    doc = Doc(
        nlp.vocab,
        words=["A", " ", "b", ".", "\n", "C", "d"],
        tags=["DT", "_SP", "NN", ".", "_SP", "NNP", "VBZ"],
        sent_starts=[True, False, False, False, True, False, False],
    )
    doc.spans["pt0"] = [Span(doc, 0, 3, "NP"), Span(doc, 4, 5, "X"), Span(doc, 4, 7, "VP")]
    words, kept = words_only(doc)
    assert [t.text for t in words] == ["A", "b", ".", "C", "d"]
    assert kept.tolist() == [0, 2, 3, 5, 6]
    assert [t.tag_ for t in words] == ["DT", "NN", ".", "NNP", "VBZ"]
    assert [[t.text for t in s] for s in words.sents] == [["A", "b", "."], ["C", "d"]]
    # a span of whitespace only has no words: it is dropped
    assert [(s.start, s.end, s.label_) for s in words.spans["pt0"]] == [(0, 2, "NP"), (3, 5, "VP")]
    assert words_only(nlp(TEXT))[1] is None


def test_the_copy_keeps_every_attribute_the_features_read(nlp):
    Token.set_extension("senna_test_mark", default="", force=True)
    doc = Doc(nlp.vocab, words=["Big", "\n", "dogs", "bark"], pos=["ADJ", "SPACE", "NOUN", "VERB"])
    doc[3]._.senna_test_mark = "yes"
    words, kept = words_only(doc, ("tag_", "pos_", "_.senna_test_mark", "is_title"))
    assert [t.pos_ for t in words] == ["ADJ", "NOUN", "VERB"]
    assert [t._.senna_test_mark for t in words] == ["", "", "yes"]
    assert words.has_annotation("POS")


def test_training_learns_from_the_words_only(pipeline_dir):
    """A training doc with whitespace tokens gives the loss of the same words without
    them: the networks never learn from a newline as a word."""
    nlp = spacy.load(pipeline_dir)
    ner = nlp.get_pipe("senna_ner")
    losses = []
    for text in (TEXT, SPACED):
        gold = nlp(text)  # its own entities as gold; the whitespace tokens are O or inside
        eg = Example(nlp.make_doc(text), gold)
        losses.append(ner.update([eg], sgd=None)["senna_ner"])  # no sgd: weights unchanged
    assert losses[0] > 0
    assert losses[1] == pytest.approx(losses[0], rel=1e-5)
