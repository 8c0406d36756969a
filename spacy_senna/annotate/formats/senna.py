"""`senna`: the columns the SENNA binary prints, one line per token, a blank line per sentence.

Token (right-aligned to 15 characters), then tab-separated right-aligned columns as
SENNA's `printf("\t%10s")`: POS, CHK and NER in IOBES (S-NP, B-PER ... E-PER, O), then
for SRL the verb column (the predicate's word or "-", width 15) and one IOBES column per
predicate of the sentence, in token order (S-V, B-A0 ... E-A0), then last, unpadded as
SENNA prints it, the PSG column of the constituency tree (`(S1(S(NP*`, see ../psg.py).
Only the layers the pipeline writes are printed. Strip each field to parse it (as NLTK's
Senna does).
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional

from spacy.tokens import Doc

from ..annotations import read_annotations
from ..columns import sentence_tokens
from .base import DocFormat
from .table import sentence_columns

WIDTHS = {"token": 15, "verb": 15, "psg": 0}
TAG_WIDTH = 10


class SennaFormat(DocFormat):
    extension = "senna"

    def add(self, doc: Doc, meta: Optional[Dict[str, Any]] = None) -> bytes:
        annotations = read_annotations(doc, self.layers)
        lines: List[str] = []
        for kept in sentence_tokens(doc):
            columns = sentence_columns(doc, annotations, kept, "iobes", "iobes", psg_last=True)
            widths = [WIDTHS.get(name, TAG_WIDTH) for name, _ in columns]
            for row in zip(*(values for _, values in columns)):
                lines.append("\t".join(v.rjust(w) for v, w in zip(row, widths)))
            lines.append("")
        return "".join(line + "\n" for line in lines).encode("utf8")
