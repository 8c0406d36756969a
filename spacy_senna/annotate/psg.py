"""A sentence's constituents as SENNA's PSG column and as one bracketed tree string.

SENNA's PSG column (`senna -psg`, as SENNA_main.c prints it) is CoNLL-2005's full-syntax
column (the Charniak parses `(S1(S(NP*` of its data): for each token, the brackets that
open at it, `*` standing for the token (its `(POS word)`), then one `)` per bracket that
closes at it. The root is `(S1 ...)`; when no constituent spans the whole sentence SENNA
puts `(S ...)` under it, so "(NP The cat) (VP sat)" prints `(S1(S(NP*`, `*)`, `(VP*)))`.
Tokens that are only whitespace are left out, as in the other columns.
"""

from __future__ import annotations

from typing import List, Sequence

from spacy.tokens import Doc

from ..constituents import NO_TAG
from ..trees import tree_from_spans, tree_string
from .columns import SpanLike

#: the label of SENNA's (and the CoNLL-2005 Charniak parses') root bracket
ROOT = "S1"
#: the node SENNA puts under the root when no constituent spans the sentence
FALLBACK = "S"


def sentence_spans(doc: Doc, spans: Sequence[SpanLike], kept: Sequence[int]) -> List[SpanLike]:
    """The `spans` (doc offsets) inside one sentence, whose non-space tokens are `kept`
    (sorted), as (start, end, label) over positions in `kept`, outermost first.

    A span is inside when every non-space token it holds is kept; spans holding only
    whitespace and spans crossing an earlier one are left out.
    """
    if not kept:
        return []
    position = {token: k for k, token in enumerate(kept)}
    first, last = kept[0], kept[-1]
    out: List[SpanLike] = []
    open_ends: List[int] = []
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


def psg_column(spans: Sequence[SpanLike], n: int) -> List[str]:
    """SENNA's PSG column of a sentence of `n` tokens from its spans (sentence positions,
    outermost first, properly nested, as `sentence_spans` gives them)."""
    if not n:
        return []
    opening = [""] * n
    closing = [0] * n
    for start, end, label in spans:
        opening[start] += f"({label}"
        closing[end - 1] += 1
    spanned = any(start == 0 and end == n for start, end, _ in spans)
    wrapper = [ROOT] if spanned else [ROOT, FALLBACK]
    opening[0] = "".join(f"({label}" for label in wrapper) + opening[0]
    closing[-1] += len(wrapper)
    return [f"{o}*{')' * c}" for o, c in zip(opening, closing)]


def parse_string(doc: Doc, spans: Sequence[SpanLike], kept: Sequence[int]) -> str:
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
