"""Spans -> one tag per token in SENNA's IOBES, CoNLL's IOB2 or CoNLL-2005's brackets.

Tokens that are only whitespace are left out of the column formats, so a span's tags
cover the non-space tokens it holds; spans that overlap an earlier one are skipped.
"""

from __future__ import annotations

from typing import Callable, Dict, Iterable, List, Sequence, Tuple

from spacy.tokens import Doc, Span

from ..syntax.constituents import Bracket

SCHEMES = ("iobes", "iob2", "brackets")


def iobes(label: str, n: int) -> List[str]:
    """SENNA's tags for a span of n tokens: S-X, or B-X I-X ... E-X."""
    if n == 1:
        return [f"S-{label}"]
    return [f"B-{label}"] + [f"I-{label}"] * (n - 2) + [f"E-{label}"]


def iob2(label: str, n: int) -> List[str]:
    """CoNLL-2000/IOB2 tags: B-X I-X ..."""
    return [f"B-{label}"] + [f"I-{label}"] * (n - 1)


def brackets(label: str, n: int) -> List[str]:
    """CoNLL-2005 start-end tags: (X*), or (X* * ... *)."""
    if n == 1:
        return [f"({label}*)"]
    return [f"({label}*"] + ["*"] * (n - 2) + ["*)"]


_SCHEME: Dict[str, Tuple[Callable[[str, int], List[str]], str]] = {
    "iobes": (iobes, "O"),
    "iob2": (iob2, "O"),
    "brackets": (brackets, "*"),
}


def span_tags(spans: Iterable[Bracket], kept: Sequence[int], scheme: str) -> List[str]:
    """A tag for each token index in `kept` (sorted), from non-overlapping spans."""
    encode, outside = _SCHEME[scheme]
    position = {token: k for k, token in enumerate(kept)}
    tags = [outside] * len(kept)
    taken = [False] * len(kept)
    for start, end, label in sorted(spans, key=lambda s: (s[0], s[1])):
        members = [position[i] for i in range(start, end) if i in position]
        if not members or any(taken[k] for k in members):
            continue
        for k, tag in zip(members, encode(label, len(members))):
            tags[k] = tag
            taken[k] = True
    return tags


def as_tuples(spans: Iterable[Span]) -> List[Bracket]:
    """(start, end, label) of each span."""
    return [(span.start, span.end, span.label_) for span in spans]


def sentence_bounds(doc: Doc) -> List[Tuple[int, int]]:
    """(start, end) of each sentence; the whole doc when it has no sentence boundaries."""
    bounds = [(s.start, s.end) for s in doc.sents] if doc.has_annotation("SENT_START") else []
    if not bounds and len(doc):
        bounds = [(0, len(doc))]
    return bounds


def kept_tokens(doc: Doc, start: int, end: int) -> List[int]:
    """The indices of tokens [start, end) that are not only whitespace."""
    return [i for i in range(start, end) if not doc[i].is_space]


def sentence_tokens(doc: Doc) -> List[List[int]]:
    """Per sentence, the indices of its tokens that are not only whitespace (sentences of
    whitespace only are left out)."""
    sentences = [kept_tokens(doc, start, end) for start, end in sentence_bounds(doc)]
    return [kept for kept in sentences if kept]
