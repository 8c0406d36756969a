"""One sentence as named columns (token, pos, chunk, ner, verb, one per predicate, psg)."""

from __future__ import annotations

from typing import List, Sequence, Tuple

from spacy.tokens import Doc

from ...syntax.constituents import sentence_spans
from ..annotations import Annotations
from ..columns import span_tags
from ..psg import psg_column

Column = Tuple[str, List[str]]


def sentence_columns(
    doc: Doc,
    annotations: Annotations,
    kept: Sequence[int],
    scheme: str,
    srl_scheme: str,
    psg_last: bool = False,
) -> List[Column]:
    """Columns of the tokens `kept` (one sentence): chunks and entities in `scheme`,
    SRL arguments in `srl_scheme` (see columns.SCHEMES).

    Missing tags print as "-". SRL adds a "verb" column (the predicate's word or "-")
    and one column per predicate in the sentence, in token order. Constituents add a
    "psg" column (psg.psg_column): after the chunks (CoNLL-2005's order), or last
    (SENNA's) with `psg_last`.
    """
    columns: List[Column] = [("token", [doc[i].text for i in kept])]
    if annotations.tags is not None:
        columns.append(("pos", [annotations.tags[i] or "-" for i in kept]))
    if annotations.chunks is not None:
        columns.append(("chunk", span_tags([s[:3] for s in annotations.chunks], kept, scheme)))
    psg: List[Column] = []
    if annotations.constituents is not None:
        spans = sentence_spans(doc, annotations.constituents, kept)
        psg.append(("psg", psg_column(spans, len(kept))))
    if not psg_last:
        columns += psg
    if annotations.ents is not None:
        columns.append(("ner", span_tags([s[:3] for s in annotations.ents], kept, scheme)))
    if annotations.frames is not None:
        inside = set(kept)
        frames = [f for f in annotations.frames if f.predicate in inside]
        predicates = {f.predicate for f in frames}
        columns.append(("verb", [doc[i].text if i in predicates else "-" for i in kept]))
        for frame in frames:
            arguments = [s[:3] for s in frame.arguments]
            columns.append((f"srl:{frame.predicate}", span_tags(arguments, kept, srl_scheme)))
    if psg_last:
        columns += psg
    return columns
