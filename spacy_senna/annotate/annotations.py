"""A doc's annotation layers as plain data: tags, scored chunks, entities, SRL frames and
constituents."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Dict, List, NamedTuple, Optional, Sequence, Tuple

from spacy.tokens import Doc, Span, SpanGroup

from .. import srl_frames
from .layers import Layers


class ScoredSpan(NamedTuple):
    start: int
    end: int
    label: str
    score: Optional[float]


class Frame(NamedTuple):
    predicate: int
    arguments: List[ScoredSpan]


@dataclass(frozen=True)
class Annotations:
    """What the pipeline wrote on one doc (None: the pipeline has no such layer)."""

    tags: Optional[List[str]]
    chunks: Optional[List[ScoredSpan]]
    ents: Optional[List[ScoredSpan]]
    frames: Optional[List[Frame]]
    #: (start, end, label) of every constituent, in the group's order (outermost first)
    constituents: Optional[List[Tuple[int, int, str]]] = None


def read_annotations(doc: Doc, layers: Layers) -> Annotations:
    """The layers of `doc` that the pipeline writes."""
    tags = [token.tag_ for token in doc] if layers.tags else None
    chunks = None
    if layers.chunks_key is not None:
        group = doc.spans[layers.chunks_key] if layers.chunks_key in doc.spans else []
        chunks = scored(group)
    ents = None
    if layers.ents:
        scores: Dict[Tuple[int, int, str], Optional[float]] = {}
        if layers.ents_scores_key is not None and layers.ents_scores_key in doc.spans:
            scores = {s[:3]: s.score for s in scored(doc.spans[layers.ents_scores_key])}
        ents = [
            ScoredSpan(e.start, e.end, e.label_, scores.get((e.start, e.end, e.label_)))
            for e in doc.ents
        ]
    frames = None
    if layers.srl_key is not None:
        frames = [
            Frame(frame.predicate.i, scored(frame.arguments))
            for frame in srl_frames(doc, layers.srl_key)
        ]
    constituents = None
    if layers.constituents_key is not None:
        group = doc.spans[layers.constituents_key] if layers.constituents_key in doc.spans else []
        constituents = [(span.start, span.end, span.label_) for span in group]
    return Annotations(tags, chunks, ents, frames, constituents)


def scored(group: "SpanGroup | Sequence[Span]") -> List[ScoredSpan]:
    """Spans of a group with the probabilities in its `attrs["scores"]` (None without)."""
    attrs = getattr(group, "attrs", {})
    scores = attrs.get("scores")
    if scores is None or len(scores) != len(group):
        scores = [None] * len(group)
    return [
        ScoredSpan(span.start, span.end, span.label_, None if p is None else float(p))
        for span, p in zip(group, scores)
    ]
