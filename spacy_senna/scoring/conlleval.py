"""conlleval.pl (CoNLL-2000 evaluation script, 2004-01-26): its counting and its report.

`conlleval(lines)` reads lines of delimiter-separated columns whose last two are the
gold and the guessed tag; a blank line or a line whose first column is `-X-` is a
sentence boundary (other lines, `-DOCSTART-` ones included, are ordinary tokens), and
returns exactly the report conlleval prints.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from fractions import Fraction
from typing import Any

from ..labels.tags import conlleval_end_of_chunk, conlleval_start_of_chunk, split_tag
from .counts import prf_by_type

CONLLEVAL_BOUNDARY = "-X-"


class ConllevalCounter:
    """conlleval.pl's counting loop, fed one (gold tag, guessed tag) pair per line.

    Reproduces the script's arithmetic exactly, including how it reads invalid tag
    sequences; `add(..., boundary=True)` is a sentence break (blank or `-X-` line).
    """

    def __init__(self) -> None:
        self.n_tokens = 0
        self.n_correct_tags = 0
        self._n_gold: Counter = Counter()
        self._n_found: Counter = Counter()
        self._n_correct: Counter = Counter()
        self._in_correct = False
        self._last_correct, self._last_correct_type = "O", ""
        self._last_guessed, self._last_guessed_type = "O", ""

    def add(self, gold: str, guess: str, boundary: bool = False) -> None:
        """Process one line's gold and guessed tags."""
        correct, correct_type = split_tag(gold)
        guessed, guessed_type = split_tag(guess)
        if boundary:
            guessed = "O"
        end_c = conlleval_end_of_chunk(
            self._last_correct, correct, self._last_correct_type, correct_type
        )
        end_g = conlleval_end_of_chunk(
            self._last_guessed, guessed, self._last_guessed_type, guessed_type
        )
        start_c = conlleval_start_of_chunk(
            self._last_correct, correct, self._last_correct_type, correct_type
        )
        start_g = conlleval_start_of_chunk(
            self._last_guessed, guessed, self._last_guessed_type, guessed_type
        )
        if self._in_correct:
            if end_c and end_g and self._last_guessed_type == self._last_correct_type:
                self._in_correct = False
                self._n_correct[self._last_correct_type] += 1
            elif end_c != end_g or guessed_type != correct_type:
                self._in_correct = False
        if start_c and start_g and guessed_type == correct_type:
            self._in_correct = True
        if start_c:
            self._n_gold[correct_type] += 1
        if start_g:
            self._n_found[guessed_type] += 1
        if not boundary:
            self.n_correct_tags += correct == guessed and guessed_type == correct_type
            self.n_tokens += 1
        self._last_correct, self._last_correct_type = correct, correct_type
        self._last_guessed, self._last_guessed_type = guessed, guessed_type

    def result(self) -> dict[str, Any]:
        """Counts and P/R/F like `score_chunks`, plus `n_tokens`, `n_correct_tags`, `acc`."""
        n_correct = self._n_correct.copy()
        if self._in_correct:
            n_correct[self._last_correct_type] += 1
        result = prf_by_type(n_correct, self._n_gold, self._n_found)
        result["n_tokens"] = self.n_tokens
        result["n_correct_tags"] = self.n_correct_tags
        result["acc"] = (
            Fraction(self.n_correct_tags, self.n_tokens) if self.n_tokens else Fraction(0)
        )
        return result


def _percent(numerator: int, denominator: int) -> float:
    # (100 * n) / d in double precision, as Perl evaluates 100*$n/$d
    return 100 * numerator / denominator if denominator > 0 else 0.0


def _fb1(precision: float, recall: float) -> float:
    return 2 * precision * recall / (precision + recall) if precision + recall > 0 else 0.0


def _perl_true(value: str | None) -> bool:
    return value not in (None, "", "0")


def format_conlleval(
    result: dict[str, Any], n_tokens: int, token_accuracy: float | Fraction
) -> str:
    """The report conlleval.pl prints for `result` (from `score_chunks` or `ConllevalCounter`).

    `token_accuracy` is the fraction of tokens whose gold and guessed tags are equal; pass
    a `Fraction(correct, total)` to round exactly as conlleval does. P/R/F are recomputed
    from the counts with the script's arithmetic, so the printed digits match it.
    """
    n_gold, n_found, n_correct = result["n_gold"], result["n_found"], result["n_correct"]
    lines = [
        f"processed {n_tokens} tokens with {n_gold} phrases; "
        f"found: {n_found} phrases; correct: {n_correct}."
    ]
    if n_tokens > 0:
        precision = _percent(n_correct, n_found)
        recall = _percent(n_correct, n_gold)
        lines.append(
            f"accuracy: {float(100 * token_accuracy):6.2f}%; precision: {precision:6.2f}%; "
            f"recall: {recall:6.2f}%; FB1: {_fb1(precision, recall):6.2f}"
        )
    per_type = result["per_type"]
    keys = sorted(
        [t for t, row in per_type.items() if row["n_gold"] > 0]
        + [t for t, row in per_type.items() if row["n_found"] > 0]
    )
    sorted_types: list[str] = []
    last_type: str | None = None
    for type_ in keys:
        if not _perl_true(last_type) or last_type != type_:
            sorted_types.append(type_)
        last_type = type_
    for type_ in sorted_types:
        row = per_type[type_]
        precision = _percent(row["n_correct"], row["n_found"])
        recall = _percent(row["n_correct"], row["n_gold"])
        fb1 = 0.0 if precision + recall == 0.0 else 2 * precision * recall / (precision + recall)
        name = " " * max(0, 17 - len(type_.encode("utf8"))) + type_
        lines.append(
            f"{name}: precision: {precision:6.2f}%; recall: {recall:6.2f}%; "
            f"FB1: {fb1:6.2f}  {row['n_found']}"
        )
    return "\n".join(lines) + "\n"


def conlleval(
    lines: Iterable[tuple[int, str]],
    delimiter: str = " ",
    raw: bool = False,
    o_tag: str = "O",
    name: str = "-",
) -> str:
    """conlleval.pl's report for numbered input lines (`name` only labels errors)."""
    pattern = re.compile(delimiter)
    counter = ConllevalCounter()
    n_features: int | None = None
    for lineno, line in lines:
        features = pattern.split(line)
        while features and features[-1] == "":
            features.pop()  # Perl's split drops trailing empty fields
        if n_features is None or n_features < 0:
            n_features = len(features) - 1
        elif n_features != len(features) - 1 and features:
            raise ValueError(
                f"{name}:{lineno}: unexpected number of features: "
                f"{len(features)} ({n_features + 1})"
            )
        if not features or features[0] == CONLLEVAL_BOUNDARY:
            features = [CONLLEVAL_BOUNDARY, "O", "O"]
        if len(features) < 2:
            raise ValueError(f"{name}:{lineno}: unexpected number of features in line {line}")
        gold, guess = features[-2], features[-1]
        if raw:
            gold = "O" if gold in (o_tag, "O") else f"B-{gold}"
            guess = "O" if guess in (o_tag, "O") else f"B-{guess}"
        boundary = len(features) > 2 and features[0] == CONLLEVAL_BOUNDARY
        counter.add(gold, guess, boundary=boundary)
    result = counter.result()
    return format_conlleval(result, result["n_tokens"], result["acc"])
