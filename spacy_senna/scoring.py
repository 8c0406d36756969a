"""Scoring (paper §1.4): chunk F1 as conlleval computes it, and tagger scoring."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from fractions import Fraction
from typing import Any

from spacy.scorer import Scorer
from spacy.training import Example
from spacy.util import registry

from .tags import Chunk, conlleval_end_of_chunk, conlleval_start_of_chunk, split_tag

# ---------------------------------------------------------------------------------------
# Chunk (span) scoring with conlleval.pl semantics
# ---------------------------------------------------------------------------------------

CONLLEVAL_BOUNDARY = "-X-"


def _prf(n_correct: int, n_gold: int, n_found: int) -> dict[str, Any]:
    p = n_correct / n_found if n_found else 0.0
    r = n_correct / n_gold if n_gold else 0.0
    f = 2 * p * r / (p + r) if p + r else 0.0
    return {"p": p, "r": r, "f": f, "n_gold": n_gold, "n_found": n_found, "n_correct": n_correct}


def _result(n_correct: Counter, n_gold: Counter, n_found: Counter) -> dict[str, Any]:
    result = _prf(sum(n_correct.values()), sum(n_gold.values()), sum(n_found.values()))
    types = sorted(set(n_gold) | set(n_found))
    result["per_type"] = {t: _prf(n_correct[t], n_gold[t], n_found[t]) for t in types}
    return result


def score_chunks(
    gold: Sequence[Iterable[Chunk]], pred: Sequence[Iterable[Chunk]]
) -> dict[str, Any]:
    """Precision, recall and F1 over `(type, start, end)` chunks, one list per sentence.

    A predicted chunk is correct when its type, start and end all match a gold chunk of
    the same sentence. Returns `p`, `r`, `f` (fractions 0..1; 0 when undefined), the
    counts `n_gold`, `n_found`, `n_correct`, and `per_type` with the same keys for every
    type seen in gold or pred.
    """
    if len(gold) != len(pred):
        raise ValueError(f"gold has {len(gold)} sentences but pred has {len(pred)}")
    n_gold: Counter = Counter()
    n_found: Counter = Counter()
    n_correct: Counter = Counter()
    for gold_chunks, pred_chunks in zip(gold, pred):
        gold_set = Counter(gold_chunks)
        pred_set = Counter(pred_chunks)
        n_gold.update(chunk[0] for chunk in gold_set.elements())
        n_found.update(chunk[0] for chunk in pred_set.elements())
        n_correct.update(chunk[0] for chunk in (gold_set & pred_set).elements())
    return _result(n_correct, n_gold, n_found)


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
        result = _result(n_correct, self._n_gold, self._n_found)
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


# -- spaCy scorers -----------------------------------------------------------------------


def score_span_group(examples: Iterable[Example], *, spans_key: str = "chunks", **_) -> dict:
    """`spans_<key>_p/r/f` and `spans_<key>_per_type`: exact (start, end, label) matches,
    the same counting conlleval does on the chunks read from the tag columns."""
    return Scorer.score_spans(
        examples,
        attr=f"spans_{spans_key}",
        getter=lambda doc, attr: doc.spans.get(attr[len("spans_") :], []),
        has_annotation=lambda doc: spans_key in doc.spans,
        allow_overlap=False,
    )


@registry.scorers("spacy-senna.spans_scorer.v1")
def make_spans_scorer() -> Callable:
    """Span P/R/F for the span group a senna_chunker writes (its `spans_key`)."""
    return score_span_group
