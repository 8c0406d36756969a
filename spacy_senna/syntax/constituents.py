"""Constituency trees on a Doc: a span group of labelled constituents, its trees, and
benepar's attribute names on spans.

A parse is `doc.spans["constituents"]`: every phrase node as a labelled span, outermost
first, a unary chain as spans with the same bounds (top first). Part-of-speech tags are
the tokens' `tag_`. `span._.labels`, `span._.parse_string`, `span._.parent` and
`span._.children` read it as benepar's do (Kitaev & Klein 2018): a span's labels are
those of the constituents with exactly its bounds, top first (empty for a span that is
not one); its children are the largest constituents and the words inside it that no
other one holds, left to right. Its `parse_string` leaves out tokens that are only
whitespace (the parser reads the words without them), so the string stays one line that
a tree reader reads back, as `annotate`'s jsonl writes it.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from spacy.tokens import Doc, Span

from ..models.sequences import sequence_bounds
from .trees import Constituent, Tree, tree_from_spans, tree_string

#: the span group a parse is read from and written to
CONSTITUENTS_KEY = "constituents"
#: `doc.user_data` key naming the group the span attributes read, when not the default
KEY_USER_DATA = "spacy_senna.constituents_key"
#: the tag of a word without `tag_` in a tree
NO_TAG = "XX"
#: a span as (start, end, label), the order the annotate formats write
Bracket = tuple[int, int, str]


def constituents_key(doc: Doc) -> str:
    """The span group holding the doc's parse."""
    return doc.user_data.get(KEY_USER_DATA, CONSTITUENTS_KEY)


def doc_constituents(doc: Doc, key: str | None = None) -> list[Constituent]:
    """The doc's constituents, `(label, start, end)` in doc offsets, in group order."""
    group = doc.spans.get(key or constituents_key(doc), [])
    return [(span.label_, span.start, span.end) for span in group]


def within(spans: list[Constituent], start: int, end: int) -> list[Constituent]:
    """The spans inside tokens [start, end), in offsets relative to `start`."""
    return [(lab, s - start, e - start) for lab, s, e in spans if start <= s and e <= end]


def span_tree(
    doc: Doc, start: int, end: int, root: str | None = "", key: str | None = None
) -> Tree:
    """The tree of tokens [start, end) (under a `root` wrapper, see `tree_from_spans`)."""
    tokens = doc[start:end]
    return tree_from_spans(
        [t.text for t in tokens],
        [t.tag_ or NO_TAG for t in tokens],
        within(doc_constituents(doc, key), start, end),
        root,
    )


def sentence_trees(
    doc: Doc, key: str | None = None, bounds: list[tuple[int, int]] | None = None
) -> list[Tree]:
    """One tree per sentence (the whole doc without sentence boundaries), or per (start,
    end) of `bounds`, each under the treebanks' unlabelled wrapper `( ...)`."""
    bounds = sequence_bounds(doc) if bounds is None else bounds
    return [span_tree(doc, start, end, key=key) for start, end in bounds]


def _labels(span: Span) -> tuple[str, ...]:
    bounds = (span.start, span.end)
    return tuple(lab for lab, s, e in doc_constituents(span.doc) if (s, e) == bounds)


def _parse_string(span: Span) -> str:
    doc = span.doc
    brackets = [(s, e, label) for label, s, e in doc_constituents(doc)]
    return parse_string(doc, brackets, [t.i for t in span if not t.is_space])


def sentence_spans(doc: Doc, spans: Sequence[Bracket], kept: Sequence[int]) -> list[Bracket]:
    """The `spans` (doc offsets) inside one sentence, whose non-space tokens are `kept`
    (sorted), as (start, end, label) over positions in `kept`, outermost first.

    A span is inside when every non-space token it holds is kept; spans holding only
    whitespace and spans crossing an earlier one are left out.
    """
    if not kept:
        return []
    position = {token: k for k, token in enumerate(kept)}
    first, last = kept[0], kept[-1]
    out: list[Bracket] = []
    open_ends: list[int] = []
    ordered = sorted(enumerate(spans), key=lambda item: (item[1][0], -item[1][1], item[0]))
    for _, (start, end, label) in ordered:
        lo, hi = max(start, first), min(end, last + 1)
        if lo >= hi or not _only_space(doc, start, lo) or not _only_space(doc, hi, end):
            continue
        members = [position[i] for i in range(lo, hi) if i in position]
        if not members:
            continue
        s, e = members[0], members[-1] + 1
        while open_ends and open_ends[-1] <= s:
            open_ends.pop()
        if open_ends and e > open_ends[-1]:
            continue  # crosses an enclosing span
        open_ends.append(e)
        out.append((s, e, label))
    return out


def _only_space(doc: Doc, start: int, end: int) -> bool:
    return all(doc[i].is_space for i in range(start, end))


def parse_string(doc: Doc, spans: Sequence[Bracket], kept: Sequence[int]) -> str:
    """The tree of one sentence (its non-space tokens `kept`) as benepar's `parse_string`:
    `(S (NP (DT The) (NN cat)) (VP (VBD sat)))`, under an unlabelled `( ...)` when no
    constituent spans the sentence."""
    inside = sentence_spans(doc, spans, kept)
    return tree_string(
        tree_from_spans(
            [doc[i].text for i in kept],
            [doc[i].tag_ or NO_TAG for i in kept],
            [(label, s, e) for s, e, label in inside],
            root=None,
        )
    )


def _parent(span: Span) -> Span | None:
    best = None
    for _, s, e in doc_constituents(span.doc):
        inside = s <= span.start and span.end <= e and (s, e) != (span.start, span.end)
        if inside and (best is None or e - s < best[1] - best[0]):
            best = (s, e)
    return None if best is None else span.doc[best[0] : best[1]]


def _children(span: Span) -> Iterator[Span]:
    inner = {
        (s, e)
        for _, s, e in doc_constituents(span.doc)
        if span.start <= s and e <= span.end and (s, e) != (span.start, span.end)
    }
    position = span.start
    for s, e in sorted(inner, key=lambda b: (b[0], -b[1])):
        if s < position:
            continue  # inside a larger child
        for i in range(position, s):
            yield span.doc[i : i + 1]
        yield span.doc[s:e]
        position = e
    for i in range(position, span.end):
        yield span.doc[i : i + 1]


def register_span_attributes() -> None:
    """`Span._.labels`, `parse_string`, `parent` and `children` (benepar's names); kept
    as they are when benepar or an earlier call registered them."""
    getters = {
        "labels": _labels,
        "parse_string": _parse_string,
        "parent": _parent,
        "children": _children,
    }
    for name, getter in getters.items():
        if not Span.has_extension(name):
            Span.set_extension(name, getter=getter)
