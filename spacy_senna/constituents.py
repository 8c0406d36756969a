"""Constituency trees on a Doc: a span group of labelled constituents, its trees, and
benepar's attribute names on spans.

A parse is `doc.spans["constituents"]`: every phrase node as a labelled span, outermost
first, a unary chain as spans with the same bounds (top first). Part-of-speech tags are
the tokens' `tag_`. `span._.labels`, `span._.parse_string`, `span._.parent` and
`span._.children` read it as benepar's do (Kitaev & Klein 2018): a span's labels are
those of the constituents with exactly its bounds, top first (empty for a span that is
not one); its children are the largest constituents and the words inside it that no
other one holds, left to right.
"""

from __future__ import annotations

from collections.abc import Iterator

from spacy.tokens import Doc, Span

from .sequences import sequence_bounds
from .trees import Constituent, Tree, tree_from_spans, tree_string

#: the span group a parse is read from and written to
CONSTITUENTS_KEY = "constituents"
#: `doc.user_data` key naming the group the span attributes read, when not the default
KEY_USER_DATA = "spacy_senna.constituents_key"
#: the tag of a word without `tag_` in a tree
NO_TAG = "XX"


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
    return tree_string(span_tree(span.doc, span.start, span.end, root=None))


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
