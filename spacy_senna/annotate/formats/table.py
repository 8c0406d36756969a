"""One sentence as named columns (token, pos, chunk, ner, verb, one per predicate)."""

from __future__ import annotations

from typing import List, Sequence, Tuple

from spacy.tokens import Doc

from ..annotations import Annotations
from ..columns import span_tags

Column = Tuple[str, List[str]]


def sentence_columns(
    doc: Doc, annotations: Annotations, kept: Sequence[int], scheme: str, srl_scheme: str
) -> List[Column]:
    """Columns of the tokens `kept` (one sentence): chunks and entities in `scheme`,
    SRL arguments in `srl_scheme` (see columns.SCHEMES).

    Missing tags print as "-". SRL adds a "verb" column (the predicate's word or "-")
    and one column per predicate in the sentence, in token order.
    """
    columns: List[Column] = [("token", [doc[i].text for i in kept])]
    if annotations.tags is not None:
        columns.append(("pos", [annotations.tags[i] or "-" for i in kept]))
    if annotations.chunks is not None:
        columns.append(("chunk", span_tags([s[:3] for s in annotations.chunks], kept, scheme)))
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
    return columns
