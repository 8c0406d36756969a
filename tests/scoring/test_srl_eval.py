"""srl-eval.pl's counting and report on props files (hand-checked, and against the script
itself when SRL_EVAL_PL names a copy of srl-eval.pl)."""

import os
import random
import shutil
import subprocess

import pytest

from spacy_senna.scoring import props_lines, srl_eval

# sentence 0: `say` right, with a discontinuous A1 (A1 + C-A1); `go` with an AM-TMP cut short
# sentence 1: `run` missing from pred (its orphan C-A2 counts as A2), `take` only in pred
#             (skipped), `eat` predicted as `ate` (all its arguments missed)
# sentence 2: no predicate; sentence 3: `be` right but for its V (V + C-V in gold)
GOLD = """\
-    (A0*)    *
say  (V*)     *
-    (A1*     (A0*
-    *)       *)
-    *        (R-A0*)
go   *        (V*)
-    (C-A1*   (AM-TMP*
-    *)       *)

-    (A0*)    (A0*
run  (V*)     *)
-    (C-A2*)  *
-    *        (AM-NEG*)
eat  *        (V*)
-    *        (A1*)

-
-

-    (A1*)
be   (V*)
-    (C-V*)
"""
PRED = """\
-    (A0*)    *
say  (V*)     *
-    (A1*     (A0*
-    *)       *)
-    *        (R-A0*)
go   *        (V*)
-    (C-A1*   *
-    *)       (AM-TMP*)

-     (A0*    (A0*
-     *)      *)
take  (V*)    *
-     *       (AM-NEG*)
ate   *       (V*)
-     *       (A1*)

-
-

-    (A1*)
be   (V*)
-    *
"""
# counted by hand: A0 right in say and go, missed in run and eat; A1 right in say (both
# pieces) and be, missed in eat; 2 of the 5 props perfect (say; be, whose V does not count)
REPORT = """\
Number of Sentences    :           4
Number of Propositions :           5
Percentage of perfect props :  40.00

              corr.  excess  missed    prec.    rec.      F1
------------------------------------------------------------
   Overall        5       1       6    83.33   45.45   58.82
----------
        A0        2       0       2   100.00   50.00   66.67
        A1        2       0       1   100.00   66.67   80.00
        A2        0       0       1     0.00    0.00    0.00
    AM-NEG        0       0       1     0.00    0.00    0.00
    AM-TMP        0       1       1     0.00    0.00    0.00
      R-A0        1       0       0   100.00  100.00  100.00
------------------------------------------------------------
         V        2       1       3    66.67   40.00   50.00
------------------------------------------------------------
"""
WARNINGS = [
    "WARNING : sentence 1 : verb run at position 1 : missing predicted prop! Counting all "
    "arguments as missed!",
    "WARNING : sentence 1 : verb take at position 2 : found predicted prop without its gold "
    "reference! Skipping prop!",
    "WARNING : sentence 1 : props do not match : expecting eat at position 4, found ate at "
    "position 4! Counting all gold arguments as missed!",
]
LATEX = r"""\begin{table}[t]
\centering
\begin{tabular}{|l|r|r|r|}\cline{2-4}
\multicolumn{1}{l|}{}
           & Precision & Recall & F$_{\beta=1}$\\
\hline
Overall    &  83.33\% &  45.45\% &  58.82\\
\hline
A0         & 100.00\% &  50.00\% &  66.67\\
A1         & 100.00\% &  66.67\% &  80.00\\
A2         &   0.00\% &   0.00\% &   0.00\\
AM-NEG     &   0.00\% &   0.00\% &   0.00\\
AM-TMP     &   0.00\% &   0.00\% &   0.00\\
R-A0       & 100.00\% & 100.00\% & 100.00\\
\hline
\hline
V          &  66.67\% &  40.00\% &  50.00\\
\hline
\end{tabular}
\end{table}
"""
# the script ends every matrix line with a space
CONFUSION = [
    "-" * 68,
    "              corr.  excess  missed    prec.    rec.      F1    lAcc",
    " Unlabeled        5       1       6    83.33   45.45   58.82  100.00",
    "-" * 68,
    "",
    "---- Confusion Matrix: (one row for each correct role, with the distribution of predictions)",
    "               -1    0    1    2    3    4    5    6 ",
    "-1: -NONE-      0    0    0    0    0    1    0    1 ",
    " 0: A0          2    2    0    0    0    0    0    0 ",
    " 1: A1          1    0    2    0    0    0    0    0 ",
    " 2: A2          1    0    0    0    0    0    0    0 ",
    " 3: AM-NEG      1    0    0    0    0    0    0    0 ",
    " 4: AM-TMP      1    0    0    0    0    0    0    0 ",
    " 5: R-A0        0    0    0    0    0    0    1    0 ",
    " 6: V           3    0    0    0    0    0    0    2 ",
]


@pytest.fixture
def hand(tmp_path):
    gold, pred = tmp_path / "gold.props", tmp_path / "pred.props"
    gold.write_text(GOLD, encoding="utf8")
    pred.write_text(PRED, encoding="utf8")
    return gold, pred


def test_hand_checked_report(hand):
    warnings = []
    counter = srl_eval(*hand, warn=warnings.append)
    assert counter.report() == REPORT
    assert warnings == WARNINGS
    assert counter.latex() == LATEX
    assert counter.confusion_report() == "\n".join(CONFUSION) + "\n"


def test_identical_files_score_100(hand):
    counter = srl_eval(hand[0], hand[0])
    assert "   Overall       11       0       0   100.00  100.00  100.00" in counter.report()
    assert "Percentage of perfect props : 100.00" in counter.report()


def test_empty_files(tmp_path):
    empty = tmp_path / "empty.props"
    empty.write_text("", encoding="utf8")
    assert srl_eval(empty, empty).report() == (
        "Number of Sentences    :           0\n"
        "Number of Propositions :           0\n"
        "Percentage of perfect props :   0.00\n"
        "\n"
        "              corr.  excess  missed    prec.    rec.      F1\n"
        + "-" * 60
        + "\n   Overall        0       0       0     0.00    0.00    0.00\n"
        + "-" * 10
        + "\n"
        + "-" * 60
        + "\n"
        + "-" * 60
        + "\n"
    )


@pytest.mark.parametrize(
    "pred,problem",
    [
        (GOLD.split("\n\n")[0] + "\n", "{pred}: ends before sentence 2 of {gold} (line 10)"),
        (GOLD + "\n-\n", "{pred}:24: sentence 5 has no counterpart: {gold} ends before it"),
        (
            GOLD.replace("-    *)       *)\n\n", "\n"),
            "{pred}:1: sentence 1 has 7 lines, the gold one ({gold}:1) has 8",
        ),
    ],
)
def test_files_that_do_not_pair_up(hand, pred, problem):
    gold, path = hand
    path.write_text(pred, encoding="utf8")
    with pytest.raises(ValueError) as err:
        srl_eval(gold, path)
    assert str(err.value) == problem.format(gold=gold, pred=path)


LABELS = ["A0", "A1", "A2", "AM-TMP", "R-A0", "C-A0", "C-A1", "C-V", "C-R-A0"]


def _random_frame(rng, length, predicate):
    chunks, i = [("V", predicate, predicate + 1)], 0
    while i < length:
        if i != predicate and rng.random() < 0.4:
            end = i + 1
            while end < length and end != predicate and rng.random() < 0.5:
                end += 1
            chunks.append((rng.choice(LABELS), i, end))
            i = end
        else:
            i += 1
    return chunks


def _random_pair(rng):
    gold, pred = [], []
    for _ in range(rng.randint(1, 12)):
        length = rng.randint(1, 10)
        predicates = sorted(rng.sample(range(length), rng.randint(0, min(3, length))))
        frames = [_random_frame(rng, length, p) for p in predicates]
        targets = ["-"] * length
        for p in predicates:
            targets[p] = rng.choice(["go", "be"])
        gold += props_lines(targets, frames)
        kept = []
        for p, frame in zip(predicates, frames):
            if rng.random() < 0.1:
                targets[p] = "-"
                continue
            if rng.random() < 0.4:
                frame = [c for c in frame if rng.random() < 0.8]
            if rng.random() < 0.2:
                frame = _random_frame(rng, length, p)
            kept.append(frame)
        pred += props_lines(targets, kept)
    return "\n".join(gold) + "\n", "\n".join(pred) + "\n"


SCRIPT = os.environ.get("SRL_EVAL_PL", "")


@pytest.mark.skipif(
    not (SCRIPT and os.path.isfile(SCRIPT) and shutil.which("perl")),
    reason="set SRL_EVAL_PL to a copy of CoNLL-2005's srl-eval.pl (and have perl)",
)
@pytest.mark.parametrize("seed", range(20))
def test_same_output_as_srl_eval_pl(tmp_path, seed):
    gold_text, pred_text = _random_pair(random.Random(seed))
    gold, pred = tmp_path / "gold.props", tmp_path / "pred.props"
    gold.write_text(gold_text, encoding="utf8")
    pred.write_text(pred_text, encoding="utf8")
    warnings = []
    counter = srl_eval(gold, pred, warn=warnings.append)
    for option, ours in (("-latex", counter.latex()), ("-noW", counter.report())):
        done = subprocess.run(["perl", SCRIPT, option, gold, pred], capture_output=True, text=True)
        assert done.stdout == ours
    done = subprocess.run(["perl", SCRIPT, gold, pred], capture_output=True, text=True)
    assert done.stderr.splitlines() == warnings
