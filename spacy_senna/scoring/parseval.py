"""Labelled bracketing (PARSEVAL) as EVALB scores it with COLLINS.prm (Sekine & Collins).

Per tree pair: empty elements (`-NONE-`) and the phrases left empty go first; labels are
cut to their bare form (`NP-SBJ-1` -> `NP`, `bare_label`); words tagged with a
DELETE_LABEL (`,` `:` `` `` `` `''` `.`) are not counted and bound no bracket, so a
bracket spans the other words it covers, and one that covers none is dropped; brackets
labelled TOP, and the root wrapper (label "", TOP or ROOT: the WSJ files' `( (S ...))`
scores as if relabelled TOP), are not counted; preterminals are not brackets; ADVP and
PRT are one label (EQ_LABEL). Matching is one to one on (label, start, end), duplicates
included. A pair whose words (without empty elements) differ is an error sentence and
is left out of the totals, as EVALB does. Sentences of at most 40 words (empty elements
left out, punctuation counted) are also summed apart (EVALB's `len<=40`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from ..syntax.trees import ROOT_LABELS, Tree, bare_label, constituents, without_empty

#: COLLINS.prm's DELETE_LABEL list: brackets (TOP) and words (the punctuation tags)
DELETE_LABELS = frozenset({"TOP", "-NONE-", ",", ":", "``", "''", "."})
#: COLLINS.prm's EQ_LABEL ADVP PRT: labels read as the first of their group
EQUAL_LABELS = {"PRT": "ADVP"}
#: EVALB's CUTOFF_LEN
CUTOFF_LENGTH = 40

Bracket = tuple[str, int, int]


@dataclass(frozen=True)
class Scored:
    """A tree as EVALB sees it: its words, tags and counted brackets."""

    words: tuple[str, ...]
    tags: tuple[str, ...]
    brackets: Counter


def evalb_view(tree: Tree) -> Scored:
    """The words (no empty elements), tags and brackets EVALB counts of one tree."""
    kept = without_empty(tree)
    if kept is None:
        return Scored((), (), Counter())
    leaves = list(kept.preterminals())
    counted = [leaf.label not in DELETE_LABELS for leaf in leaves]
    before = [0]
    for keep in counted:
        before.append(before[-1] + keep)
    brackets: Counter = Counter()
    for k, (label, start, end) in enumerate(constituents([kept])):
        label, first, last = bare_label(label), before[start], before[end]
        root_wrapper = k == 0 and kept.label in ROOT_LABELS
        if last > first and label not in DELETE_LABELS and not root_wrapper:
            brackets[(EQUAL_LABELS.get(label, label), first, last)] += 1
    return Scored(
        tuple(leaf.word for leaf in leaves), tuple(leaf.label for leaf in leaves), brackets
    )


@dataclass
class Totals:
    """Summed counts over valid sentences."""

    sentences: int = 0
    gold: int = 0
    test: int = 0
    matched: int = 0
    complete: int = 0
    words: int = 0
    correct_tags: int = 0

    def add(self, gold: Scored, test: Scored) -> None:
        matched = sum((gold.brackets & test.brackets).values())
        n_gold, n_test = sum(gold.brackets.values()), sum(test.brackets.values())
        self.sentences += 1
        self.gold += n_gold
        self.test += n_test
        self.matched += matched
        self.complete += matched == n_gold == n_test
        for tag, guess in zip(gold.tags, test.tags):
            if tag not in DELETE_LABELS:
                self.words += 1
                self.correct_tags += tag == guess

    @property
    def recall(self) -> float:
        return 100.0 * self.matched / self.gold if self.gold else 0.0

    @property
    def precision(self) -> float:
        return 100.0 * self.matched / self.test if self.test else 0.0

    @property
    def fscore(self) -> float:
        p, r = self.precision, self.recall
        return 2 * p * r / (p + r) if p + r else 0.0


@dataclass
class Parseval:
    """EVALB's counts: all valid sentences, those of at most 40 words, and the errors."""

    all: Totals = field(default_factory=Totals)
    short: Totals = field(default_factory=Totals)
    errors: list[int] = field(default_factory=list)
    n_sentences: int = 0

    def add(self, gold: Tree, test: Tree) -> None:
        """Score one sentence (an error sentence when the words differ)."""
        self.n_sentences += 1
        gold_view, test_view = evalb_view(gold), evalb_view(test)
        if gold_view.words != test_view.words:
            self.errors.append(self.n_sentences)
            return
        self.all.add(gold_view, test_view)
        if len(gold_view.words) <= CUTOFF_LENGTH:
            self.short.add(gold_view, test_view)

    def report(self) -> str:
        """EVALB's summary: the `-- All --` and `-- len<=40 --` blocks."""
        lines = []
        for title, totals in (("All", self.all), (f"len<={CUTOFF_LENGTH}", self.short)):
            valid = totals.sentences
            errors = len(self.errors) if title == "All" else 0
            complete = 100.0 * totals.complete / valid if valid else 0.0
            tagging = 100.0 * totals.correct_tags / totals.words if totals.words else 0.0
            lines += [
                f"-- {title} --",
                f"Number of sentence        = {valid + errors:6d}",
                f"Number of Error sentence  = {errors:6d}",
                f"Number of Valid sentence  = {valid:6d}",
                f"Bracketing Recall         = {totals.recall:6.2f}",
                f"Bracketing Precision      = {totals.precision:6.2f}",
                f"Bracketing FMeasure       = {totals.fscore:6.2f}",
                f"Complete match            = {complete:6.2f}",
                f"Tagging accuracy          = {tagging:6.2f}",
                "",
            ]
        if self.errors:
            shown = ", ".join(map(str, self.errors[:10]))
            lines.append(f"Error sentences (words differ): {shown}")
        return "\n".join(lines) + "\n"


def parseval(pairs: Iterable[tuple[Tree, Tree]]) -> Parseval:
    """EVALB's counts over (gold, test) tree pairs."""
    scores = Parseval()
    for gold, test in pairs:
        scores.add(gold, test)
    return scores


def bracket_prf(gold: Sequence[Tree], test: Sequence[Tree]) -> dict[str, float]:
    """`p`, `r`, `f` (fractions 0..1) of labelled brackets over paired trees."""
    totals = parseval(zip(gold, test)).all
    return {"p": totals.precision / 100, "r": totals.recall / 100, "f": totals.fscore / 100}
