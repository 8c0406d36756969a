"""`spacy`: a DocBin (`.spacy`) of the annotated docs, JSONL metadata in `doc.user_data["meta"]`.

Read it back with `DocBin().from_disk(path).get_docs(nlp.vocab)`; chunks, entities with
their probability span group and SRL frames are all kept.
"""

from __future__ import annotations

from typing import Any, Dict, Optional

from spacy.tokens import Doc, DocBin

from ..layers import Layers
from .base import DocFormat


class DocBinFormat(DocFormat):
    extension = "spacy"
    writes_scores = True
    writes_token_attributes = True

    def __init__(self, layers: Layers) -> None:
        super().__init__(layers)
        self.doc_bin = DocBin(store_user_data=True)

    def add(self, doc: Doc, meta: Optional[Dict[str, Any]] = None) -> bytes:
        if meta is not None:
            doc.user_data["meta"] = meta
        self.doc_bin.add(doc)
        return b""

    def finish(self) -> bytes:
        return self.doc_bin.to_bytes()
