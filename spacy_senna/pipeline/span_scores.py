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
    """The rows of one predicted batch whose span probabilities are still to be computed.

    What a doc leaves here is one weak reference; its rows' lengths and chunks go to flat
    lists of the whole batch (ints and tuples of ints and strings, which the garbage
    collector stops tracking). Each group holds this object and where its rows are, and
    takes its probabilities when its attrs are first read: kept per doc, a batch of
    thousands of docs would leave the collector several tracked objects per doc.
    """

    def __init__(self, component: RowProbabilities):
        self.component = component
        self._docs: List[weakref.ref] = []
        #: per doc, the end of its rows in the flat per-row lists
        self._row_ends: List[int] = []
        #: per row, its length and the end of its chunks in `_chunks`
        self._lengths: List[int] = []
        self._chunk_ends: List[int] = []
        self._chunks: List[Chunk] = []
        #: after `fill`: per doc still alive then (by its index), its rows' probabilities,
        #: each dropped when its doc goes (`_watches`), so the docs kept from a batch do
        #: not hold the probabilities of the whole batch
        self._computed: Optional[Dict[int, List[numpy.ndarray]]] = None
        self._watches: List[weakref.ref] = []

    def add(self, doc: Doc, rows: Sequence[RowChunks]) -> int:
        """Register a doc's decoded rows; returns the doc's index, by which its groups
        take their probabilities (`probabilities`)."""
        self._docs.append(weakref.ref(doc))
        for chunks, length in rows:
            self._chunks.extend(chunks)
            self._chunk_ends.append(len(self._chunks))
            self._lengths.append(length)
        self._row_ends.append(len(self._lengths))
        return len(self._docs) - 1

    def probabilities(self, doc_index: int, start: int, stop: int) -> Optional[numpy.ndarray]:
        """The probabilities of the spans of rows `start` to `stop` of the doc registered
        as `doc_index` (computed for the whole batch at the first call), or None for a
        doc that was gone by then."""
        self.fill()
        rows = self._computed.get(doc_index)
        return None if rows is None else _concatenate(rows[start:stop])

    def fill(self) -> None:
        """Compute the probabilities of every doc still alive, once (holding the
        component's lock: its network and caches, and pausing the garbage collector, as
        when it labels a batch)."""
        if self._computed is not None:
            return
        with inference_lock(self.component), collector_paused():
            if self._computed is None:
                self._computed = self._compute()
                self._docs, self._row_ends, self._lengths = [], [], []
                self._chunk_ends, self._chunks = [], []

    def _compute(self) -> Dict[int, List[numpy.ndarray]]:
        alive = [(i, ref()) for i, ref in enumerate(self._docs)]
        alive = [(i, doc) for i, doc in alive if doc is not None]
        if not alive:
            return {}
        rows_of = [self._rows(i) for i, _ in alive]
        per_row = self.component.row_probabilities([doc for _, doc in alive], rows_of)
        this = weakref.ref(self)
        self._watches = [weakref.ref(doc, _forgetter(this, i)) for i, doc in alive]
        return {i: rows for (i, _), rows in zip(alive, per_row)}

    def _rows(self, doc_index: int) -> List[RowChunks]:
        """The decoded rows of a registered doc, as `add` got them."""
        first = self._row_ends[doc_index - 1] if doc_index else 0
        out = []
        for row in range(first, self._row_ends[doc_index]):
            chunks_from = self._chunk_ends[row - 1] if row else 0
            chunks = self._chunks[chunks_from : self._chunk_ends[row]]
            out.append(RowChunks(chunks, self._lengths[row]))
        return out


def _forgetter(pending: "weakref.ref[PendingScores]", doc_index: int):
    """A weak reference's callback: drop the probabilities of doc `doc_index` from the
    `pending` scores (if they are still there) once that doc is gone."""

    def forget(_: weakref.ref) -> None:
        held = pending()
        if held is not None and held._computed is not None:
            held._computed.pop(doc_index, None)

    return forget


class ScoredSpanGroup(BoundsSpanGroup):
    """A span group whose `attrs["scores"]` is computed when its attrs are first read:
    the probabilities of rows `rows` of the doc `doc_index` of a batch's `pending`."""

    # no instance dict: one object fewer per group for the garbage collector to track
    __slots__ = ("_pending", "_doc_index", "_row_start", "_row_stop")

    def __init__(
        self,
        doc: Doc,
        *,
        bounds: Sequence[Chunk],
        pending: Optional[PendingScores],
        doc_index: int = 0,
        rows: Tuple[int, int] = (0, 0),
        attrs: Optional[Dict] = None,
    ):
        super().__init__(doc, bounds=bounds, attrs=attrs)
        self._pending = pending
        self._doc_index = doc_index
        self._row_start, self._row_stop = rows

    @property
    def attrs(self) -> Dict:
        """The group's attrs, with the span probabilities in "scores"."""
        pending = self._pending
        if pending is not None:
            scores = pending.probabilities(self._doc_index, self._row_start, self._row_stop)
            self._pending = None
            if scores is not None:
                SpanGroup.attrs.__get__(self)["scores"] = scores
        return SpanGroup.attrs.__get__(self)

    @attrs.setter
    def attrs(self, value: Dict) -> None:
        self._pending = None
        SpanGroup.attrs.__set__(self, value)

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
