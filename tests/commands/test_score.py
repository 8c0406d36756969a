"""`python -m spacy_senna score conll FILE`: conlleval.pl's report, from a file or stdin, and
one-line errors; `score conll05 GOLD PRED`: srl-eval.pl's report, warnings, errors."""

import gzip
import io
import sys

import pytest

from spacy_senna.cli import main

GOLD = "-  (A0*)  *\ngo (V*)  *\n-  (A1*)  (A0*)\nsee *  (V*)\n"
# `see` is missing: its A0 is missed
PRED = "-  (A0*)\ngo (V*)\n-  (A2*)\n- *\n"
REPORT = """\
Number of Sentences    :           1
Number of Propositions :           2
Percentage of perfect props :   0.00

              corr.  excess  missed    prec.    rec.      F1
------------------------------------------------------------
   Overall        1       1       2    50.00   33.33   40.00
----------
        A0        1       0       1   100.00   50.00   66.67
        A1        0       0       1     0.00    0.00    0.00
        A2        0       1       0     0.00    0.00    0.00
------------------------------------------------------------
         V        1       0       1   100.00   50.00   66.67
------------------------------------------------------------
"""
WARNING = (
    "WARNING : sentence 0 : verb see at position 3 : missing predicted prop! "
    "Counting all arguments as missed!\n"
)


@pytest.fixture
def files(tmp_path):
    gold, pred = tmp_path / "gold.props", tmp_path / "pred.props.gz"
    gold.write_text(GOLD, encoding="utf8")
    pred.write_bytes(gzip.compress(PRED.encode("utf8")))
    return str(gold), str(pred)


def test_report_and_warnings(capsys, files):
    main(["score", "conll05", *files])
    out, err = capsys.readouterr()
    assert (out, err) == (REPORT, WARNING)
    main(["score", "conll05", "-noW", *files])
    assert capsys.readouterr() == (REPORT, "")


def test_options(capsys, files):
    main(["score", "conll05", "-C", *files])
    out = capsys.readouterr().out
    assert out.startswith(REPORT)
    # unlabelled, A1 predicted as A2 is right: 2 of 3 found, 1 of 2 with the right label
    assert " Unlabeled        2       0       1   100.00   66.67   80.00   50.00\n" in out
    assert out.endswith(
        " 1: A1          0    0    0    1    0 \n 2: A2          0    0    0    0    0 \n"
        " 3: V           1    0    0    0    1 \n"
    )
    main(["score", "conll05", "-latex", *files])
    out = capsys.readouterr().out
    assert out.startswith("\\begin{table}[t]\n") and "A2         &   0.00\\% &" in out


@pytest.mark.parametrize(
    "pred,problem",
    [
        (b"- (A0*)\ngo (V*)\n-  (A2*)\n", ":1: sentence 1 has 3 lines, the gold one"),
        (b"- (A0*)\ngo (V*)\n-  (A2\xe9*)\n- *\n", ":3: expected UTF-8 text"),
        (b"- (A0*)\ngo (V*\n-  *\n- *\n", ":2: column 2: argument 'V' is never closed"),
        (b"- (A0*) *\ngo (V*)\n-  *\n- *\n", ":2: expected 3 columns like the first line"),
    ],
)
def test_bad_input_is_one_line(capsys, tmp_path, files, pred, problem):
    path = tmp_path / "bad.props"
    path.write_bytes(pred)
    with pytest.raises(SystemExit) as exc:
        main(["score", "conll05", files[0], str(path)])
    assert exc.value.code == 1
    err = capsys.readouterr().err
    assert err.startswith(f"✘ {path}{problem}") and err.count("\n") == 1


def test_missing_file(capsys, tmp_path, files):
    with pytest.raises(SystemExit):
        main(["score", "conll05", files[0], str(tmp_path / "nope.props")])
    assert capsys.readouterr().err == f"✘ {tmp_path / 'nope.props'}: file not found\n"


def test_score_cli_file_and_stdin(tmp_path, capsys, monkeypatch, conlleval_cases):
    hand, hand_report = conlleval_cases["hand"]
    ner, ner_report = conlleval_cases["ner"]
    path = tmp_path / "output.txt"
    path.write_text(hand, encoding="utf8")
    main(["score", "conll", str(path)])
    assert capsys.readouterr().out == hand_report
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(ner.encode("utf8"))))
    main(["score", "conll", "-"])
    assert capsys.readouterr().out == ner_report


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


@pytest.mark.parametrize("delimiter", ["[", "(", "a{2,1}"])
def test_score_invalid_regex(capsys, conll, delimiter, fail_line):
    line = fail_line(capsys, "score", "conll", "-d", delimiter, conll)
    assert line.startswith(f"✘ -d {delimiter}: not a valid regular expression (")


def test_score_inputs(capsys, tmp_path, fail_line):
    missing = tmp_path / "missing.txt"
    assert fail_line(capsys, "score", "conll", missing) == f"✘ {missing}: file not found"
    assert fail_line(capsys, "score", "conll", tmp_path) == (
        f"✘ {tmp_path}: is a directory, expected a file"
    )
    garbled = tmp_path / "garbled.txt"
    garbled.write_text("a B-NP B-NP\nb\n", encoding="utf8")
    assert fail_line(capsys, "score", "conll", garbled).startswith(f"✘ {garbled}:2: ")
