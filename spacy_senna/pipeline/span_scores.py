"""Span probabilities computed when first read.

Each span of a span labeler carries its CRF probability in `attrs["scores"]` of its span
group. The forward-backward pass behind them costs as much as decoding, and most callers
never read them; so by default (`span_scores = true`) a component writes its groups as
`ScoredSpanGroup`s, which compute the probabilities the first time any of them is read:
for all the groups of that `nlp.pipe` batch whose docs are still alive, in one pass (the
network runs again on those docs, then one forward-backward pass). Serializing a group
(DocBin, `doc.to_bytes`, pickling) or copying it reads them first, so they travel with
the doc. `span_scores = "eager"` computes them with the spans instead, as a caller that
reads every one of them (annotate's jsonl output) should; false writes none.

The probabilities are those of the spans as the doc is when they are first read: a doc
whose words, sentences or cascade inputs (tags, chunks) changed since gets an error.
"""

import weakref
from typing import Dict, List, NamedTuple, Optional, Protocol, Sequence, Tuple, Union

import numpy
from spacy.tokens import Doc, SpanGroup

from ..labels.span_groups import BoundsSpanGroup
from ..labels.tags import Chunk
from ..runtime.collector import collector_paused
from ..runtime.threads import inference_lock

#: the values of a span labeler's `span_scores` setting, by name
MODES = {True: "lazy", False: "off", "lazy": "lazy", "eager": "eager", "off": "off"}


def scores_mode(setting: Union[bool, str], name: str) -> str:
    """ "lazy", "eager" or "off" for a `span_scores` setting (true, false or a name)."""
    mode = MODES.get(setting) if isinstance(setting, (bool, str)) else None
    if mode is None:
        raise ValueError(
            f"[{name}] span_scores must be true (probabilities computed when first read), "
            f'"eager" (computed with the spans) or false (none), got {setting!r}'
        )
    return mode


class RowChunks(NamedTuple):
    """A decoded row as its span probabilities are computed from: its chunks (row
    offsets, on the doc without whitespace tokens) and its length."""

    chunks: List[Chunk]
    length: int


class RowProbabilities(Protocol):
    """What computes the probabilities: a span labeler (`SpanLabeler.row_probabilities`)."""

    def row_probabilities(
        self, docs: List[Doc], rows_of: List[List["RowChunks"]]
    ) -> List[List[numpy.ndarray]]: ...


class PendingScores:
    """The groups of one predicted batch whose probabilities are still to be computed."""

    def __init__(self, component: RowProbabilities):
        self.component = component
        #: per doc: its reference, its rows, and its groups' references with the bounds
        #: of the rows each group holds
        self.entries: List[
            Tuple[weakref.ref, List[RowChunks], List[weakref.ref], List[Tuple[int, int]]]
        ] = []

    def add(
        self, doc: Doc, rows: List[RowChunks], groups: List[Tuple["ScoredSpanGroup", slice]]
    ) -> None:
        """Register a doc's rows and its groups, each with the rows it holds the spans of.
        The rows' bounds are kept as plain ints (tuples of ints the garbage collector
        stops tracking; a batch registers thousands of groups)."""
        refs = [weakref.ref(group) for group, _ in groups]
        parts = [part.indices(len(rows))[:2] for _, part in groups]
        self.entries.append((weakref.ref(doc), rows, refs, parts))

    def fill(self) -> None:
        """Compute and store the probabilities of every group still alive (holding the
        component's lock: its network and caches, and pausing the garbage collector, as
        when it labels a batch)."""
        with inference_lock(self.component), collector_paused():
            self._fill()

    def _fill(self) -> None:
        entries, self.entries = self.entries, []
        alive = [(entry[0](), entry) for entry in entries]
        alive = [(doc, entry) for doc, entry in alive if doc is not None]
        if not alive:
            return
        docs = [doc for doc, _ in alive]
        per_row = self.component.row_probabilities(docs, [entry[1] for _, entry in alive])
        for probabilities, (_, (_, _, refs, parts)) in zip(per_row, alive):
            for group_ref, (start, stop) in zip(refs, parts):
                group = group_ref()
                if group is not None:
                    group.set_scores(_concatenate(probabilities[start:stop]))


class ScoredSpanGroup(BoundsSpanGroup):
    """A span group whose `attrs["scores"]` is computed when its attrs are first read."""

    # no instance dict: one object fewer per group for the garbage collector to track
    __slots__ = ("_pending",)

    def __init__(
        self,
        doc: Doc,
        *,
        bounds: Sequence[Chunk],
        pending: Optional[PendingScores],
        attrs: Optional[Dict] = None,
    ):
        super().__init__(doc, bounds=bounds, attrs=attrs)
        self._pending = pending

    @property
    def attrs(self) -> Dict:
        """The group's attrs, with the span probabilities in "scores"."""
        if self._pending is not None:
            self._pending.fill()
        return SpanGroup.attrs.__get__(self)

    @attrs.setter
    def attrs(self, value: Dict) -> None:
        self._pending = None
        SpanGroup.attrs.__set__(self, value)

    def set_scores(self, scores: numpy.ndarray) -> None:
        """Store the probabilities (without reading attrs)."""
        SpanGroup.attrs.__get__(self)["scores"] = scores
        self._pending = None

    def to_bytes(self) -> bytes:
        """Serialize the group, its probabilities computed first."""
        self.attrs
        return super().to_bytes()

    def copy(self, doc: Optional[Doc] = None) -> SpanGroup:
        """A plain span group copy, the probabilities computed first."""
        self.attrs
        return super().copy(doc=doc)


def _concatenate(arrays: List[numpy.ndarray]) -> numpy.ndarray:
    if not arrays:
        return numpy.zeros(0, dtype="float32")
    return numpy.concatenate(arrays).astype("float32", copy=False)
