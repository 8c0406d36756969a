"""Rows, the sequences a network scores (a sentence, or a sentence with one predicate),
and the examples they come from."""

from typing import List, NamedTuple, Optional

import numpy
from spacy.attrs import ORTH
from spacy.training import Example

from ..models import Sequences


class Row(NamedTuple):
    """One scored sequence: tokens [start, end) of its doc, and its predicate (SRL)."""

    start: int
    end: int
    predicate: Optional[int] = None


def rows_per_doc(scores: Sequences) -> List[List[Row]]:
    """The rows of a batch's scores, grouped by doc (in row order)."""
    predicates = scores.predicates or [[None] * len(bounds) for bounds in scores.bounds]
    return [
        [Row(start, end, p) for (start, end), p in zip(bounds, doc_predicates)]
        for bounds, doc_predicates in zip(scores.bounds, predicates)
    ]


def same_tokens(example: Example) -> bool:
    """True when predicted and reference docs have identical tokens (no alignment needed)."""
    x, y = example.x, example.y
    return len(x) == len(y) and numpy.array_equal(x.to_array(ORTH), y.to_array(ORTH))
