"""conlleval.pl's counting and report: conlleval() on its input format, format_conlleval()
from score_chunks, and ConllevalCounter against score_chunks."""

import random
from fractions import Fraction

import pytest

from spacy_senna.labels.tags import conlleval_chunks
from spacy_senna.scoring import ConllevalCounter, conlleval, format_conlleval, score_chunks


def _lines(text):
    return enumerate(text.splitlines(), 1)


def test_format_conlleval_from_score_chunks(conlleval_cases):
    hand, hand_report = conlleval_cases["hand"]
    sents = [s.split("\n") for s in hand.strip("\n").split("\n\n")]
    rows = [[line.split() for line in s] for s in sents]
    gold = [conlleval_chunks([r[2] for r in s]) for s in rows]
    pred = [conlleval_chunks([r[3] for r in s]) for s in rows]
    assert format_conlleval(score_chunks(gold, pred), 9, Fraction(6, 9)) == hand_report


def test_format_conlleval_no_tokens():
    result = score_chunks([], [])
    assert format_conlleval(result, 0, 0.0) == (
        "processed 0 tokens with 0 phrases; found: 0 phrases; correct: 0.\n"
    )


@pytest.mark.parametrize(
    "case,raw", [("hand", False), ("ner", False), ("wild", False), ("raw", True)]
)
def test_conlleval_reports(conlleval_cases, case, raw):
    text, expected = conlleval_cases[case]
    assert conlleval(_lines(text), raw=raw) == expected


def test_conlleval_delimiter_and_o_tag(conlleval_cases):
    raw_text, _ = conlleval_cases["raw"]
    text = raw_text.replace(" ", "\t").replace("VB\tNN", "VB\tNONE")
    report = conlleval(_lines(text), delimiter="\t", raw=True, o_tag="NONE")
    assert report.startswith("processed 3 tokens with 3 phrases; found: 2 phrases; correct: 2.\n")


def test_counter_agrees_with_score_chunks():
    rng = random.Random(7)
    tags = ["O", "B-X", "I-X", "E-X", "B-Y", "I-Y", "S-Y"]
    for _ in range(200):
        sents = [
            [(rng.choice(tags), rng.choice(tags)) for _ in range(rng.randint(1, 8))]
            for _ in range(3)
        ]
        counter = ConllevalCounter()
        for sent in sents:
            for gold, guess in sent:
                counter.add(gold, guess)
            counter.add("O", "O", boundary=True)
        expected = counter.result()
        got = score_chunks(
            [conlleval_chunks([g for g, _ in s]) for s in sents],
            [conlleval_chunks([p for _, p in s]) for s in sents],
        )
        for key in ("n_gold", "n_found", "n_correct", "p", "r", "f", "per_type"):
            assert got[key] == expected[key]
