"""Rows, the sequences a network scores (a sentence, or a sentence with one predicate),
and the examples they come from."""

from functools import partial
from typing import Callable, Iterable, List, NamedTuple, Optional

import numpy
from spacy.attrs import ORTH
from spacy.language import Language
from spacy.training import Example

from ..models.sequences import Sequences


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


def initialize_examples(
    name: str,
    get_examples: Callable[[], Iterable[Example]],
    nlp: Optional[Language],
    corpus: Optional[Callable[[Language], Iterable[Example]]],
) -> Callable[[], Iterable[Example]]:
    """What a component initializes from: `corpus` (a reader, for a streamed training
    corpus, of which spaCy passes only 100 examples) when given, else `get_examples`."""
    if corpus is None:
        return get_examples
    if nlp is None:
        raise ValueError(f"[{name}] initialize: reading a corpus needs `nlp`.")
    return partial(corpus, nlp)


def same_tokens(example: Example) -> bool:
    """True when predicted and reference docs have identical tokens (no alignment needed)."""
    x, y = example.x, example.y
    return len(x) == len(y) and numpy.array_equal(x.to_array(ORTH), y.to_array(ORTH))
