"""Precision, recall and F1 from counts, overall and per type."""

from collections import Counter
from typing import Any, Dict


def prf(n_correct: int, n_gold: int, n_found: int) -> Dict[str, Any]:
    """`p`, `r`, `f` (fractions 0..1; 0 when undefined) and the three counts."""
    p = n_correct / n_found if n_found else 0.0
    r = n_correct / n_gold if n_gold else 0.0
    f = 2 * p * r / (p + r) if p + r else 0.0
    return {"p": p, "r": r, "f": f, "n_gold": n_gold, "n_found": n_found, "n_correct": n_correct}


def prf_by_type(n_correct: Counter, n_gold: Counter, n_found: Counter) -> Dict[str, Any]:
    """`prf` over all types, with `per_type` holding `prf` for every type seen."""
    result = prf(sum(n_correct.values()), sum(n_gold.values()), sum(n_found.values()))
    types = sorted(set(n_gold) | set(n_found))
    result["per_type"] = {t: prf(n_correct[t], n_gold[t], n_found[t]) for t in types}
    return result
