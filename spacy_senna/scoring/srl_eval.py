"""srl-eval.pl (CoNLL-2005 shared task evaluation, 2005-04-21): its counting and its report.

`srl_eval(gold, pred)` reads a gold and a predicted props file (see `props.py`) sentence
by sentence and counts every gold predicate's arguments as srl-eval.pl does, with
`frame_arguments`: a `C-X` joins the preceding `X` into one discontinuous argument (an
orphan `C-X` counts as `X`), `R-X` counts on its own, `V` has its own row outside the
overall scores. A predicted frame for a predicate the gold sentence does not have is
skipped; a gold predicate with no predicted frame, or a different target in the predicted
file, has all its arguments missed (both with the script's warnings). The counter's
`report()`, `latex()` and `confusion_report()` are what the script prints by default, with
`-latex` and with `-C`.

Deviations, all on input srl-eval.pl misreads or dies on: sentences must pair up (the script
stops at the end of the gold file, or dies), so must their lines and each sentence's columns
(one per target); a run of blank lines is one sentence break (the script stops reading at
the first empty gold sentence); nested arguments in one column, and files that are not
UTF-8, raise a ValueError naming file and line; with `-C` and no argument found in
the right place, the labelled accuracy prints as 0.00 (the script dies dividing by zero).
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Callable, Iterable
from itertools import zip_longest

from ..labels.tags import Chunk
from .props import PropsSentence, read_props
from .srl import frame_arguments

EXCLUDED_TYPES = ("V",)
NONE = "-NONE-"
_RULE = "-" * 60
_WIDE_RULE = "-" * 68
Row = tuple[str, int, int, int]


class SrlEvalCounter:
    """srl-eval.pl's counts, fed one (gold frame, predicted frame) pair per gold predicate."""

    def __init__(self) -> None:
        self.n_sentences = 0
        self.n_props = 0
        self.n_perfect = 0
        self.correct: Counter = Counter()
        self.excess: Counter = Counter()
        self.missed: Counter = Counter()
        self.types: set[str] = set()
        self.confusion: Counter = Counter()

    def add(self, gold: Iterable[Chunk], predicted: Iterable[Chunk]) -> None:
        """Count one gold predicate's frame against its predicted frame (V included)."""
        gold_args = frame_arguments(gold, excluded=())
        found_args = frame_arguments(predicted, excluded=())
        correct = gold_args & found_args
        for counts, args in (
            (self.correct, correct),
            (self.missed, gold_args - correct),
            (self.excess, found_args - correct),
        ):
            for (label, _), n in args.items():
                counts[label] += n
                self.types.add(label)
        wrong = (gold_args - correct) + (found_args - correct)
        self.n_perfect += not any(label not in EXCLUDED_TYPES for label, _ in wrong)
        self.n_props += 1
        self._add_confusion(gold_args, found_args)

    def _add_confusion(self, gold_args: Counter, found_args: Counter) -> None:
        """(gold type, predicted type) of arguments matching in place, whatever their type."""
        gold_at = {pieces: label for label, pieces in gold_args.elements()}
        for label, pieces in found_args.elements():
            gold_label = gold_at.pop(pieces, NONE)
            self.confusion[gold_label, label] += 1
        for pieces, label in gold_at.items():
            self.confusion[label, NONE] += 1

    def table(self) -> tuple[Row, list[Row], list[Row]]:
        """The report's rows (name, correct, excess, missed): Overall, one per scored
        argument type, one per excluded type (V), types in Perl's sort order."""
        scored = sorted(t for t in self.types if t not in EXCLUDED_TYPES)
        excluded = sorted(t for t in self.types if t in EXCLUDED_TYPES)
        overall = (
            "Overall",
            sum(self.correct[t] for t in scored),
            sum(self.excess[t] for t in scored),
            sum(self.missed[t] for t in scored),
        )
        return overall, [self._row(t) for t in scored], [self._row(t) for t in excluded]

    def _row(self, label: str) -> Row:
        return (label, self.correct[label], self.excess[label], self.missed[label])

    def report(self) -> str:
        """srl-eval.pl's default report, exactly."""
        perfect = 100 * self.n_perfect / self.n_props if self.n_props > 0 else 0
        header = ("", "corr.", "excess", "missed", "prec.", "rec.", "F1")
        overall, scored, excluded = self.table()
        lines = [
            "Number of Sentences    :      %6d" % self.n_sentences,
            "Number of Propositions :      %6d" % self.n_props,
            "Percentage of perfect props : %6.2f" % perfect,
            "",
            "%10s   %6s  %6s  %6s   %6s  %6s  %6s" % header,
            _RULE,
            _table_row(overall),
            "-" * 10,
        ]
        lines += [_table_row(row) for row in scored] + [_RULE]
        lines += [_table_row(row) for row in excluded] + [_RULE]
        return "\n".join(lines) + "\n"

    def latex(self) -> str:
        """srl-eval.pl's `-latex` table, exactly."""
        overall, scored, excluded = self.table()
        lines = [
            r"\begin{table}[t]",
            r"\centering",
            r"\begin{tabular}{|l|r|r|r|}\cline{2-4}",
            r"\multicolumn{1}{l|}{}",
            r"           & Precision & Recall & F$_{\beta=1}$\\",
            r"\hline",
            _latex_row(overall),
            r"\hline",
        ]
        lines += [_latex_row(row) for row in scored] + [r"\hline", r"\hline"]
        lines += [_latex_row(row) for row in excluded] + [r"\hline"]
        lines += [r"\end{tabular}", r"\end{table}"]
        return "\n".join(lines) + "\n"

    def confusion_report(self) -> str:
        """srl-eval.pl's `-C` output: unlabelled scores and the confusion matrix."""
        not_roles = {NONE, *EXCLUDED_TYPES}
        roles = {g for g, _ in self.confusion} - not_roles
        unlabelled_ok = sum(
            n for (g, p), n in self.confusion.items() if g in roles and p not in not_roles
        )
        label_ok = sum(self.confusion[role, role] for role in roles)
        missed = sum(self.confusion[role, NONE] for role in roles)
        excess = sum(n for (g, p), n in self.confusion.items() if g == NONE and p not in not_roles)
        accuracy = 100 * label_ok / unlabelled_ok if unlabelled_ok else 0
        scores = (*precision_recall_f1(unlabelled_ok, excess, missed), accuracy)
        header = ("", "corr.", "excess", "missed", "prec.", "rec.", "F1", "lAcc")
        lines = [
            _WIDE_RULE,
            "%10s   %6s  %6s  %6s   %6s  %6s  %6s  %6s" % header,
            "%s   %6d  %6d  %6d   %6.2f  %6.2f  %6.2f  %6.2f"
            % (_rjust("Unlabeled", 10), unlabelled_ok, excess, missed, *scores),
            _WIDE_RULE,
            "",
            "---- Confusion Matrix: (one row for each correct role, with the distribution "
            "of predictions)",
        ]
        # the script reads its matrix's -NONE- row to sum the excess, which creates the row
        keys = sorted({key for pair in self.confusion for key in pair} | {NONE})
        lines.append(" " * 13 + "".join("%4d " % i for i in range(-1, len(keys) - 1)))
        for i, gold in enumerate(keys, -1):
            cells = "".join("%4d " % self.confusion[gold, found] for found in keys)
            lines.append("%2d: %s %s" % (i, _ljust(gold, 8), cells))
        return "\n".join(lines) + "\n"


def precision_recall_f1(correct: int, excess: int, missed: int) -> tuple[float, float, float]:
    """srl-eval.pl's `precrecf1`: precision, recall and F1 in percent (0 when undefined)."""
    p = 100 * correct / (correct + excess) if correct + excess > 0 else 0
    r = 100 * correct / (correct + missed) if correct + missed > 0 else 0
    f1 = (2 * p * r) / (p + r) if p + r > 0 else 0
    return p, r, f1


def _table_row(row: Row) -> str:
    name, correct, excess, missed = row
    scores = precision_recall_f1(correct, excess, missed)
    return "%s   %6d  %6d  %6d   %6.2f  %6.2f  %6.2f" % (
        _rjust(name, 10),
        correct,
        excess,
        missed,
        *scores,
    )


def _latex_row(row: Row) -> str:
    name, correct, excess, missed = row
    scores = precision_recall_f1(correct, excess, missed)
    return "%s & %6.2f\\%% & %6.2f\\%% & %6.2f\\\\" % (_ljust(name, 10), *scores)


def _rjust(text: str, width: int) -> str:
    """Right-justified to `width` bytes of UTF-8, as Perl's printf pads a byte string."""
    return " " * (width - len(text.encode("utf8"))) + text


def _ljust(text: str, width: int) -> str:
    return text + " " * (width - len(text.encode("utf8")))


def srl_eval(
    gold_path: str | os.PathLike,
    pred_path: str | os.PathLike,
    warn: Callable[[str], None] | None = None,
) -> SrlEvalCounter:
    """Count a predicted props file against the gold one, as srl-eval.pl does.

    `warn` receives the script's warnings (a predicted frame with no gold predicate, a
    gold predicate with no or a different predicted target). Files whose sentences, or
    whose sentences' lines, do not pair up raise a ValueError naming file and line.
    """
    counter = SrlEvalCounter()
    sentences = zip_longest(read_props(gold_path), read_props(pred_path))
    for index, (gold, predicted) in enumerate(sentences):
        if predicted is None:
            raise ValueError(
                f"{pred_path}: ends before sentence {index + 1} of {gold_path} "
                f"(line {gold.first_line})"
            )
        if gold is None:
            raise ValueError(
                f"{pred_path}:{predicted.first_line}: sentence {index + 1} has no counterpart: "
                f"{gold_path} ends before it"
            )
        if len(gold.targets) != len(predicted.targets):
            raise ValueError(
                f"{pred_path}:{predicted.first_line}: sentence {index + 1} has "
                f"{len(predicted.targets)} lines, the gold one ({gold_path}:{gold.first_line}) "
                f"has {len(gold.targets)}"
            )
        _count_sentence(counter, index, gold, predicted, warn or (lambda _: None))
        counter.n_sentences += 1
    return counter


def _count_sentence(
    counter: SrlEvalCounter,
    index: int,
    gold: PropsSentence,
    predicted: PropsSentence,
    warn: Callable[[str], None],
) -> None:
    gold_frames, found_frames = gold.frames(), predicted.frames()
    where = f"WARNING : sentence {index} :"
    for position in range(max(gold_frames, default=-1) + 1):
        verb, found_verb = gold.targets[position], predicted.targets[position]
        if position in found_frames and position not in gold_frames:
            warn(
                f"{where} verb {found_verb} at position {position} : found predicted prop "
                "without its gold reference! Skipping prop!"
            )
        elif position in gold_frames:
            found = found_frames.get(position)
            if found is None:
                warn(
                    f"{where} verb {verb} at position {position} : missing predicted prop! "
                    "Counting all arguments as missed!"
                )
                found = []
            elif verb != found_verb:
                warn(
                    f"{where} props do not match : expecting {verb} at position {position}, "
                    f"found {found_verb} at position {position}! Counting all gold arguments "
                    "as missed!"
                )
                found = []
            counter.add(gold_frames[position], found)
