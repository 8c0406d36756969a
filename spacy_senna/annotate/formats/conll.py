"""`conll`: tab-separated CoNLL columns, one line per token, a blank line per sentence.

Token, POS, chunk (CoNLL-2000 IOB2: B-NP I-NP), the CoNLL-2005 full-syntax column of the
constituency tree (`(S1(S(NP*`, see ../psg.py), NER (IOB2), then for SRL the CoNLL-2005
props columns: the predicate's word or "-", and one start-end column per predicate
((A0* * *), (V*)). Only the layers the pipeline writes are printed.
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional

from spacy.tokens import Doc

from ..annotations import read_annotations
from ..columns import sentence_tokens
from .base import DocFormat
from .table import sentence_columns


class ConllFormat(DocFormat):
    extension = "conll"

    def add(self, doc: Doc, meta: Optional[Dict[str, Any]] = None) -> bytes:
        annotations = read_annotations(doc, self.layers)
        lines: List[str] = []
        for kept in sentence_tokens(doc):
            columns = [v for _, v in sentence_columns(doc, annotations, kept, "iob2", "brackets")]
            lines += ["\t".join(row) for row in zip(*columns)] + [""]
        return "".join(line + "\n" for line in lines).encode("utf8")
