"""The interface every output format implements."""

from __future__ import annotations

from typing import Any, Dict, Optional

from spacy.tokens import Doc

from ..layers import Layers


class DocFormat:
    """Bytes for one shard's output: `add` per doc in order, then `finish` once."""

    extension = ""
    #: whether the output holds the span probabilities (`attrs["scores"]`); annotate
    #: skips computing them for a format that does not
    writes_scores = False
    #: whether the output holds `pos_`, `morph` and `lemma_`; annotate skips the
    #: components that only write those for a format that does not
    writes_token_attributes = False

    def __init__(self, layers: Layers) -> None:
        self.layers = layers

    def add(self, doc: Doc, meta: Optional[Dict[str, Any]] = None) -> bytes:
        """The bytes that `doc` adds to the output (may be empty until `finish`)."""
        raise NotImplementedError

    def finish(self) -> bytes:
        """The bytes that end the output."""
        return b""
