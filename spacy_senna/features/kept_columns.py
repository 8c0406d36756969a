"""A labelled batch's token columns (`Doc.to_array`), each read once per doc.

Several steps of one component read the same column of the same doc: the sentence
starts (the input batches' shapes, then the featurizer's sequences), the tags (the POS
feature, SRL's predicates). Inside `columns_kept` (a component predicting a batch,
holding its lock, before it writes any doc) `doc_column` reads each doc's column once and
keeps it, read-only, until the block ends; outside it reads the doc every time. No doc
changes in the block, so a kept column is the doc's own; the doc is kept with it, so no
other doc can take its id meanwhile.
"""

from contextlib import contextmanager
from contextvars import ContextVar
from typing import Dict, Iterator, Optional, Tuple

import numpy
from spacy.tokens import Doc

_KEPT: ContextVar[Optional[Dict[Tuple[int, int], Tuple[Doc, numpy.ndarray]]]] = ContextVar(
    "spacy_senna_kept_columns", default=None
)


@contextmanager
def columns_kept() -> Iterator[None]:
    """Keep the columns `doc_column` reads in the block (this thread's, for this block)."""
    token = _KEPT.set({})
    try:
        yield
    finally:
        _KEPT.reset(token)


def doc_column(doc: Doc, attr: int) -> numpy.ndarray:
    """`doc.to_array(attr)`, read-only: read once per doc inside `columns_kept`."""
    kept = _KEPT.get()
    if kept is None:
        column = doc.to_array(attr)
        column.flags.writeable = False
        return column
    held = kept.get((id(doc), attr))
    if held is None:
        column = doc.to_array(attr)
        column.flags.writeable = False
        held = kept[(id(doc), attr)] = (doc, column)
    return held[1]
