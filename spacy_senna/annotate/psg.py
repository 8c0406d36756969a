"""A sentence's constituents as SENNA's PSG column.

SENNA's PSG column (`senna -psg`, as SENNA_main.c prints it) is CoNLL-2005's full-syntax
column (the Charniak parses `(S1(S(NP*` of its data): for each token, the brackets that
open at it, `*` standing for the token (its `(POS word)`), then one `)` per bracket that
closes at it. The root is `(S1 ...)`; when no constituent spans the whole sentence SENNA
puts `(S ...)` under it, so "(NP The cat) (VP sat)" prints `(S1(S(NP*`, `*)`, `(VP*)))`.
Tokens that are only whitespace are left out, as in the other columns.
"""

from __future__ import annotations

from typing import List, Sequence

from ..syntax.constituents import Bracket

#: the label of SENNA's (and the CoNLL-2005 Charniak parses') root bracket
ROOT = "S1"
#: the node SENNA puts under the root when no constituent spans the sentence
FALLBACK = "S"


def psg_column(spans: Sequence[Bracket], n: int) -> List[str]:
    """SENNA's PSG column of a sentence of `n` tokens from its spans (sentence positions,
    outermost first, properly nested, as `constituents.sentence_spans` gives them)."""
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
