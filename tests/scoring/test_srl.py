"""srl-eval scoring when the predicted tokens differ from the gold ones (spacy evaluate
without --gold-preproc, training with gold_preproc = false)."""

from spacy.lang.en import English
from spacy.tokens import Doc, Span
from spacy.training import Example

from spacy_senna.scoring import score_srl


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
