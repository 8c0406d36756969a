"""Chunk (span) P/R/F over `(type, start, end)` chunks, counted as conlleval counts them."""

from collections import Counter
from typing import Any, Dict, Iterable, Sequence

from ..labels.tags import Chunk
from .counts import prf_by_type


def score_chunks(
    gold: Sequence[Iterable[Chunk]], pred: Sequence[Iterable[Chunk]]
) -> Dict[str, Any]:
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
    return prf_by_type(n_correct, n_gold, n_found)
