"""SRL frames on a Doc: one span group per predicate, keyed `"<spans_key>:<token index>"`.

`doc.spans["srl:7"]` holds the arguments (A0, A1, AM-TMP, ..., and V itself) of the
predicate at token 7. The component writes frames this way, the CoNLL-2005 converter
reads them into it and the scorer counts them from it; `doc._.srl_frames` lists them.
"""

from typing import Dict, List, NamedTuple, Tuple

from spacy.tokens import Doc, SpanGroup, Token

from ..labels.tags import Chunk


class SrlFrame(NamedTuple):
    """One predicate and its arguments (V, the predicate itself, included)."""

    predicate: Token
    arguments: SpanGroup


def frame_key(spans_key: str, predicate: int) -> str:
    """The span group holding the frame of the predicate at token `predicate`."""
    return f"{spans_key}:{predicate}"


def frame_keys(doc: Doc, spans_key: str = "srl") -> List[Tuple[int, str]]:
    """(predicate token, span group key) of every frame on the doc, in token order."""
    prefix = f"{spans_key}:"
    found = []
    for key in doc.spans:
        if key.startswith(prefix) and key[len(prefix) :].isdigit():
            found.append((int(key[len(prefix) :]), key))
    return sorted(found)


def frame_chunks(doc: Doc, spans_key: str = "srl") -> Dict[int, List[Chunk]]:
    """{predicate token: [(label, start, end), ...]} of every frame on the doc."""
    return {
        i: [(s.label_, s.start, s.end) for s in doc.spans[key]]
        for i, key in frame_keys(doc, spans_key)
    }


def srl_frames(doc: Doc, spans_key: str = "srl") -> List[SrlFrame]:
    """The doc's frames: `[SrlFrame(predicate token, argument spans), ...]`."""
    return [SrlFrame(doc[i], doc.spans[key]) for i, key in frame_keys(doc, spans_key)]


if not Doc.has_extension("srl_frames"):
    Doc.set_extension("srl_frames", getter=srl_frames)
