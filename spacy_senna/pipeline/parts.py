"""A doc too long for one model call is labelled in parts: runs of its sentences.

Each sentence is a row the network labels on its own (windows pad at its edges, the
CRF path starts and ends there), so a doc whose sentences do not fit one model call
(`batching.call_floats`) is cut between sentences into `DocPart`s that each fit
one. A part goes through the model as a copy of its tokens (`part_doc`), made when its
call comes, with the span groups the features read; its rows are moved back to the
doc's offsets (`in_doc_offsets`). So the working memory of a call, and the work per
token, do not grow with the doc.
"""

from typing import Callable, Dict, List, NamedTuple, Sequence, Tuple

import numpy
from spacy.attrs import SPACY
from spacy.tokens import Doc

from ..models.sequences import Sequences
from . import batching
from .whitespace import copy_tokens


class SpanArrays(NamedTuple):
    """A span group as arrays, ordered by start: starts, ends and label ids."""

    starts: numpy.ndarray
    ends: numpy.ndarray
    labels: numpy.ndarray

    def within(self, start: int, end: int) -> List[Tuple[int, int, int]]:
        """(start, end, label) of the spans that start in [start, end), relative to
        `start` and cut at `end`."""
        first, last = numpy.searchsorted(self.starts, [start, end])
        ends = numpy.minimum(self.ends[first:last], end)
        rows = zip(self.starts[first:last] - start, ends - start, self.labels[first:last])
        return [(int(s), int(e), int(label)) for s, e, label in rows]


class DocPart(NamedTuple):
    """Sentences `bounds` (doc offsets) of `doc`, labelled as one model input, and the
    doc's span groups that the model reads."""

    doc: Doc
    bounds: List[Tuple[int, int]]
    spans: Dict[str, SpanArrays]

    @property
    def start(self) -> int:
        """The doc offset of the part's first token."""
        return self.bounds[0][0]

    @property
    def shape(self) -> Tuple[int, int]:
        """(rows, longest row) of the part, as one model input."""
        return len(self.bounds), max(end - start for start, end in self.bounds)


def fits_one_call(shape: Tuple[int, int], cost: Callable[[int], int], limit: int) -> bool:
    """Whether (rows, longest row) `shape` fits one model call of `limit` floats by `cost`."""
    return shape[0] * cost(shape[1]) <= limit


def doc_parts(
    doc: Doc,
    bounds: List[Tuple[int, int]],
    cost: Callable[[int], int],
    limit: int,
    span_keys: Sequence[str],
) -> List[DocPart]:
    """The doc's sentences `bounds` in runs that each fit one model call of `limit` floats
    by `cost` (a run holds at least one sentence), with the span groups `span_keys` the
    model reads."""
    spans = {key: _span_arrays(doc, key) for key in span_keys if key in doc.spans}
    shapes = [(1, e - s) for s, e in bounds]
    runs = batching.bounded_batches(list(enumerate(bounds)), shapes, cost, limit)
    return [DocPart(doc, [sentence for _, sentence in run], spans) for run in runs]


def part_doc(part: DocPart, attrs: Sequence[str]) -> Doc:
    """A copy of the part's tokens: its sentences, tags, the token attributes `attrs`
    and its spans of the span groups the model reads."""
    start, end = part.start, part.bounds[-1][1]
    spaces = part.doc[start:end].to_array([SPACY]).reshape(-1).astype(bool).tolist()
    starts = numpy.zeros(end - start, dtype=bool)
    starts[[s - start for s, _ in part.bounds]] = True
    spans = {key: arrays.within(start, end) for key, arrays in part.spans.items()}
    kept = numpy.arange(start, end)
    return copy_tokens(part.doc, kept, spaces, starts.tolist(), attrs, spans)


def in_doc_offsets(scores: Sequences, offsets: List[int]) -> Sequences:
    """`scores` with each input's rows (and predicates) moved by its offset in its doc."""
    if not any(offsets):
        return scores
    bounds = [
        [(start + offset, end + offset) for start, end in doc_bounds]
        for doc_bounds, offset in zip(scores.bounds, offsets)
    ]
    predicates = scores.predicates
    if predicates is not None:
        predicates = [[p + offset for p in ps] for ps, offset in zip(predicates, offsets)]
    return scores._replace(bounds=bounds, predicates=predicates)


def _span_arrays(doc: Doc, key: str) -> SpanArrays:
    """The span group `doc.spans[key]` as arrays ordered by start."""
    rows = numpy.array([(s.start, s.end, s.label) for s in doc.spans[key]], dtype="uint64")
    rows = rows.reshape(-1, 3)[numpy.argsort(rows.reshape(-1, 3)[:, 0], kind="stable")]
    starts, ends = rows[:, 0].astype("int64"), rows[:, 1].astype("int64")
    return SpanArrays(starts, ends, rows[:, 2])
