"""srl-eval scoring of SRL frames for spaCy: continued arguments count as one, and
predicted tokens that differ from the gold ones (spacy evaluate without --gold-preproc,
training with gold_preproc = false)."""

import pytest
from spacy.lang.en import English
from spacy.tokens import Doc, Span
from spacy.training import Example

from spacy_senna.scoring import frame_arguments, score_srl


def test_a_gold_predicate_split_into_two_tokens_counts_as_missed():
    vocab = English().vocab
    gold = Doc(vocab, words=["They", "cannot", "go", "home"])
    gold.spans["srl:1"] = [Span(gold, 0, 1, "A0"), Span(gold, 1, 2, "V")]
    gold.spans["srl:2"] = [Span(gold, 0, 1, "A0"), Span(gold, 2, 3, "V"), Span(gold, 3, 4, "A4")]
    predicted = Doc(vocab, words=["They", "can", "not", "go", "home"])
    predicted.spans["srl:3"] = [
        Span(predicted, 0, 1, "A0"),
        Span(predicted, 3, 4, "V"),
        Span(predicted, 4, 5, "A4"),
    ]
    scores = score_srl([Example(predicted, gold)])
    # "cannot" aligns to two predicted tokens: its A0 is missed, "go"'s frame is right
    assert scores["srl_per_type"]["A0"] == {"p": 1.0, "r": 0.5, "f": 2 / 3}
    assert scores["srl_per_type"]["A4"]["f"] == 1.0
    assert abs(scores["srl_r"] - 2 / 3) < 1e-12 and scores["srl_p"] == 1.0


def test_scorer_counts_continuations_as_one_argument(srl_reference_doc):
    vocab = English().vocab
    words = "a b c d e f g".split()
    gold = srl_reference_doc(
        vocab,
        words,
        ["NN"] * 7,
        {
            2: [("A1", 0, 1), ("V", 2, 3), ("C-A1", 3, 4), ("AM-TMP", 5, 7)],
        },
    )
    # A1 + C-A1 right (1 argument), AM-TMP wrong boundary, an extra A0, V ignored
    guess = srl_reference_doc(
        vocab,
        words,
        ["NN"] * 7,
        {
            2: [("A1", 0, 1), ("V", 2, 3), ("C-A1", 3, 4), ("AM-TMP", 5, 6), ("A0", 1, 2)],
        },
    )
    scores = score_srl([Example(guess, gold)])
    assert scores["srl_p"] == pytest.approx(1 / 3) and scores["srl_r"] == pytest.approx(1 / 2)
    assert scores["srl_per_type"]["A1"]["f"] == 1.0
    # only half of a continued argument is wrong: the whole argument is wrong
    assert frame_arguments([("A1", 0, 1), ("C-A1", 3, 4)]) != frame_arguments(
        [("A1", 0, 1), ("C-A1", 3, 5)]
    )
    # a continuation with no head counts as the head type; a later one joins it
    assert frame_arguments([("C-A1", 0, 1), ("C-A1", 3, 4)]) == frame_arguments(
        [("A1", 0, 1), ("C-A1", 3, 4)]
    )
    # a frame for a predicate the reference does not have is skipped, as srl-eval.pl does
    extra = srl_reference_doc(
        vocab,
        words,
        ["NN"] * 7,
        {
            2: [("A1", 0, 1), ("C-A1", 3, 4), ("AM-TMP", 5, 7)],
            6: [("A0", 0, 1)],
        },
    )
    assert score_srl([Example(extra, gold)])["srl_p"] == pytest.approx(1.0)
