"""Span groups that remember their spans as written, and reading a group's spans.

A component that writes a span group (the chunker's chunks, the ner's entities) knows each
span's (label, start, end). Reading them back from a plain `SpanGroup` makes a `Span`
object per span (about 2.5 us each: SRL's chunk feature spent more time there than in the
rest of its featurizing). `BoundsSpanGroup` keeps the tuples beside its spans and forgets
them at any edit of the group, so `span_bounds` gives exactly what iterating gives.
"""

from __future__ import annotations

from typing import Dict, Iterable, Optional, Sequence, Tuple

from spacy.tokens import Doc, Span, SpanGroup

#: a span as (label, start token, end token)
Bounds = Tuple[str, int, int]


class BoundsSpanGroup(SpanGroup):
    """A span group that keeps its spans' (label, start, end) until it is edited."""

    # no instance dict; weak references for the span probabilities computed when read
    __slots__ = ("_bounds", "__weakref__")

    def __init__(
        self,
        doc: Doc,
        *,
        bounds: Sequence[Bounds],
        attrs: Optional[Dict] = None,
    ):
        spans = [Span(doc, start, end, label=label) for label, start, end in bounds]
        super().__init__(doc, spans=spans, attrs=attrs or {})
        self._bounds: Optional[Tuple[Bounds, ...]] = tuple(bounds)

    @property
    def bounds(self) -> Optional[Tuple[Bounds, ...]]:
        """The spans' (label, start, end) as written; None once the group was edited."""
        return self._bounds

    def __setitem__(self, index, span) -> None:
        self._bounds = None
        super().__setitem__(index, span)

    def __delitem__(self, index) -> None:
        self._bounds = None
        super().__delitem__(index)

    def __iadd__(self, other):
        self._bounds = None
        return super().__iadd__(other)

    def append(self, span: Span) -> None:
        """Add a span (the kept bounds are forgotten)."""
        self._bounds = None
        super().append(span)

    def extend(self, spans) -> None:
        """Add spans (the kept bounds are forgotten)."""
        self._bounds = None
        super().extend(spans)

    def __copy__(self) -> SpanGroup:
        """`copy.copy`: a plain copy, as `copy()` gives (spaCy's own state-copy would leave
        this class's slots unset)."""
        return self.copy()

    def __deepcopy__(self, memo: dict) -> SpanGroup:
        """`copy.deepcopy`: a plain copy on the same doc, as `copy()` gives."""
        return self.copy()

    def _concat(self, other, *, inplace: bool = False):
        if inplace:
            self._bounds = None
        return super()._concat(other, inplace=inplace)


def span_bounds(doc: Doc, key: str) -> Iterable[Bounds]:
    """(label, start, end) of each span of `doc.spans[key]` (none when it is absent)."""
    group = doc.spans.get(key)
    if group is None:
        return ()
    bounds = group.bounds if isinstance(group, BoundsSpanGroup) else None
    if bounds is not None:
        return bounds
    return [(span.label_, span.start, span.end) for span in group]
