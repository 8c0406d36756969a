import io
import random
import sys
from fractions import Fraction

import pytest

from spacy_senna.cli import main
from spacy_senna.scoring import ConllevalCounter, conlleval, format_conlleval, score_chunks
from spacy_senna.tags import conlleval_chunks

# fmt: off
HAND = (
    "The DT B-NP B-NP\n"
    "cat NN I-NP I-NP\n"
    "sat VBD B-VP B-VP\n"
    "on IN B-PP B-NP\n"
    "the DT B-NP I-NP\n"
    "mat NN I-NP I-NP\n"
    ". . O O\n"
    "\n"
    "It PRP B-NP B-NP\n"
    "ran VBD B-VP O\n"
)
# gold: NP(0,2) VP(2,3) PP(3,4) NP(4,6) | NP(0,1) VP(1,2) -> 6 phrases
# pred: NP(0,2) VP(2,3) NP(3,6)         | NP(0,1)         -> 4 phrases, 3 correct
# tags equal on 6 of 9 tokens; NP: 2/3 found, 2/3 gold; PP: 0/0, 0/1; VP: 1/1, 1/2
HAND_REPORT = (
    "processed 9 tokens with 6 phrases; found: 4 phrases; correct: 3.\n"
    "accuracy:  66.67%; precision:  75.00%; recall:  50.00%; FB1:  60.00\n"
    "               NP: precision:  66.67%; recall:  66.67%; FB1:  66.67  3\n"
    "               PP: precision:   0.00%; recall:   0.00%; FB1:   0.00  0\n"
    "               VP: precision: 100.00%; recall:  50.00%; FB1:  66.67  1\n"
)
# IOB1 NER; -DOCSTART- is an ordinary token for conlleval, `-X-` lines are boundaries
NER = (
    "-DOCSTART- -X- O O\n"
    "\n"
    "Ann NNP I-PER I-PER\n"
    "Lee NNP I-PER I-PER\n"
    "Bob NNP B-PER I-PER\n"
    "in IN O O\n"
    "Rome NNP I-LOC I-ORG\n"
    "-X- x O O\n"
    "Paris NNP I-LOC B-LOC\n"
)
# gold PER(Ann Lee) PER(Bob) LOC(Rome) LOC(Paris); pred PER(Ann Lee Bob) ORG(Rome) LOC(Paris)
NER_REPORT = (
    "processed 7 tokens with 4 phrases; found: 3 phrases; correct: 1.\n"
    "accuracy:  57.14%; precision:  33.33%; recall:  25.00%; FB1:  28.57\n"
    "              LOC: precision: 100.00%; recall:  50.00%; FB1:  66.67  1\n"
    "              ORG: precision:   0.00%; recall:   0.00%; FB1:   0.00  1\n"
    "              PER: precision:   0.00%; recall:   0.00%; FB1:   0.00  1\n"
)
# bracket and bare tags, and conlleval.pl's duplicated row for the empty type (from the script)
WILD = "a [ X\nb ] .\nc X [\nd . ]\ne O X\nf B-X O\n"
WILD_REPORT = (
    "processed 6 tokens with 3 phrases; found: 2 phrases; correct: 0.\n"
    "accuracy:   0.00%; precision:   0.00%; recall:   0.00%; FB1:   0.00\n"
    "                 : precision:   0.00%; recall:   0.00%; FB1:   0.00  2\n"
    "                 : precision:   0.00%; recall:   0.00%; FB1:   0.00  2\n"
    "                X: precision:   0.00%; recall:   0.00%; FB1:   0.00  0\n"
)
RAW = "a NN NN\nb VB NN\nc DT DT\n"
RAW_REPORT = (
    "processed 3 tokens with 3 phrases; found: 3 phrases; correct: 2.\n"
    "accuracy:  66.67%; precision:  66.67%; recall:  66.67%; FB1:  66.67\n"
    "               DT: precision: 100.00%; recall: 100.00%; FB1: 100.00  1\n"
    "               NN: precision:  50.00%; recall: 100.00%; FB1:  66.67  2\n"
    "               VB: precision:   0.00%; recall:   0.00%; FB1:   0.00  0\n"
)
# fmt: on


def _lines(text):
    return enumerate(text.splitlines(), 1)


def test_score_chunks_counts():
    gold = [[("NP", 0, 2), ("VP", 2, 3), ("PP", 3, 4), ("NP", 4, 6)], [("NP", 0, 1), ("VP", 1, 2)]]
    pred = [[("NP", 0, 2), ("VP", 2, 3), ("NP", 3, 6)], [("NP", 0, 1)]]
    result = score_chunks(gold, pred)
    assert (result["n_gold"], result["n_found"], result["n_correct"]) == (6, 4, 3)
    assert result["p"] == pytest.approx(0.75)
    assert result["r"] == pytest.approx(0.5)
    assert result["f"] == pytest.approx(0.6)
    assert sorted(result["per_type"]) == ["NP", "PP", "VP"]
    pp = result["per_type"]["PP"]
    assert (pp["p"], pp["r"], pp["f"], pp["n_found"]) == (0.0, 0.0, 0.0, 0)
    vp = result["per_type"]["VP"]
    assert (vp["p"], vp["r"]) == (1.0, 0.5) and vp["f"] == pytest.approx(2 / 3)


def test_score_chunks_tricky():
    # same span, wrong type; right type, wrong end; chunk in another sentence doesn't match
    gold = [[("PER", 0, 2), ("LOC", 3, 4)], [("ORG", 0, 1)]]
    pred = [[("ORG", 0, 2), ("LOC", 3, 5)], [("PER", 0, 2)]]
    result = score_chunks(gold, pred)
    assert (result["n_gold"], result["n_found"], result["n_correct"]) == (3, 3, 0)
    assert (result["p"], result["r"], result["f"]) == (0.0, 0.0, 0.0)
    assert set(result["per_type"]) == {"PER", "LOC", "ORG"}
    # nothing at all: every score is 0, not an error
    empty = score_chunks([[], []], [[], []])
    assert (empty["p"], empty["r"], empty["f"], empty["per_type"]) == (0.0, 0.0, 0.0, {})
    # only predictions of a type absent from gold
    only_pred = score_chunks([[]], [[("MISC", 0, 1)]])
    assert only_pred["per_type"]["MISC"]["n_gold"] == 0
    assert only_pred["per_type"]["MISC"]["p"] == 0.0
    perfect = score_chunks([[("X", 0, 1), ("X", 1, 3)]], [[("X", 1, 3), ("X", 0, 1)]])
    assert (perfect["p"], perfect["r"], perfect["f"]) == (1.0, 1.0, 1.0)


def test_score_chunks_length_mismatch():
    with pytest.raises(ValueError):
        score_chunks([[]], [[], []])


def test_format_conlleval_from_score_chunks():
    sents = [s.split("\n") for s in HAND.strip("\n").split("\n\n")]
    rows = [[line.split() for line in s] for s in sents]
    gold = [conlleval_chunks([r[2] for r in s]) for s in rows]
    pred = [conlleval_chunks([r[3] for r in s]) for s in rows]
    assert format_conlleval(score_chunks(gold, pred), 9, Fraction(6, 9)) == HAND_REPORT


def test_format_conlleval_no_tokens():
    result = score_chunks([], [])
    assert format_conlleval(result, 0, 0.0) == (
        "processed 0 tokens with 0 phrases; found: 0 phrases; correct: 0.\n"
    )


@pytest.mark.parametrize(
    "text,raw,expected",
    [
        (HAND, False, HAND_REPORT),
        (NER, False, NER_REPORT),
        (WILD, False, WILD_REPORT),
        (RAW, True, RAW_REPORT),
    ],
)
def test_conlleval_reports(text, raw, expected):
    assert conlleval(_lines(text), raw=raw) == expected


def test_conlleval_delimiter_and_o_tag():
    text = RAW.replace(" ", "\t").replace("VB\tNN", "VB\tNONE")
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


def test_score_cli_file_and_stdin(tmp_path, capsys, monkeypatch):
    path = tmp_path / "output.txt"
    path.write_text(HAND, encoding="utf8")
    main(["score", "conll", str(path)])
    assert capsys.readouterr().out == HAND_REPORT
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(NER.encode("utf8"))))
    main(["score", "conll", "-"])
    assert capsys.readouterr().out == NER_REPORT


def test_score_cli_errors(tmp_path, capsys):
    path = tmp_path / "bad.txt"
    path.write_text("a B-NP B-NP\nb I-NP\n", encoding="utf8")
    with pytest.raises(SystemExit) as exc:
        main(["score", "conll", str(path)])
    assert exc.value.code == 1
    err = capsys.readouterr().err
    assert "bad.txt:2" in err and "unexpected number of features: 2 (3)" in err
    with pytest.raises(SystemExit):
        main(["score", "conll", str(tmp_path / "missing.txt")])
    assert "not found" in capsys.readouterr().err
