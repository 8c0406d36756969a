"""Span labeling shared by senna_chunker and senna_ner: exact span probabilities, k-best
analyses, span scores, overlapping gold spans."""

import pytest
from spacy.lang.en import English
from spacy.tokens import Span

import spacy_senna  # noqa: F401
from spacy_senna.corpora.readers import copy_inputs


def test_span_probability_matches_the_crf(train_span_labeler):
    nlp, _ = train_span_labeler("senna_ner", steps=3)
    doc = nlp("John Smith visited Paris today")
    ner_pipe = nlp.get_pipe("senna_ner")
    crf = spacy_senna.models.senna_model.get_net(ner_pipe.model).criterion
    scores = ner_pipe.model.predict([doc])
    marginals = crf.marginals(scores.emissions, scores.lengths)[0]
    for span, score in zip(doc.spans["senna_ents"], doc.spans["senna_ents"].attrs["scores"]):
        if len(span) == 1:  # a one-token span's probability is the U- tag's marginal
            assert score == pytest.approx(
                marginals[span.start, ner_pipe.tag_index[f"U-{span.label_}"]].item(), abs=1e-5
            )


def test_kbest_keeps_alternative_analyses(train_span_labeler):
    nlp, _ = train_span_labeler("senna_ner", steps=20, config={"kbest": 3})
    doc = nlp("John Smith visited Paris today")
    assert "senna_ents_2" in doc.spans and "senna_ents_3" in doc.spans
    assert len(doc.spans["senna_ents_2"].attrs["scores"]) == len(doc.spans["senna_ents_2"])


def test_evaluate_reports_span_scores(chunker, ner, span_examples):
    nlp, _ = chunker
    examples = span_examples(nlp)
    for eg in examples:  # the chunker reads POS: given, as spacy-senna.Corpus.v1 does
        copy_inputs(eg, ["tag_"])
    scores = nlp.evaluate(examples)
    assert scores["spans_chunks_f"] == 1.0 and "NP" in scores["spans_chunks_per_type"]
    nlp, _ = ner
    assert nlp.evaluate(span_examples(nlp))["ents_f"] == 1.0


def test_overlapping_gold_spans_warn(span_examples):
    nlp = English()
    nlp.add_pipe("senna_chunker")
    examples = span_examples(nlp)
    ref = examples[0].reference
    ref.spans["chunks"] = list(ref.spans["chunks"]) + [Span(ref, 0, 3, label="NP")]
    nlp.initialize(lambda: examples)
    with pytest.warns(UserWarning, match="overlapping gold spans"):
        nlp.update(examples)
