"""spaCy components; importing this registers their factories."""

from .span_labeler import SennaChunker, SennaNER, make_senna_chunker, make_senna_ner
from .tagger import SennaTagger, make_senna_tagger

__all__ = [
    "SennaChunker",
    "SennaNER",
    "SennaTagger",
    "make_senna_chunker",
    "make_senna_ner",
    "make_senna_tagger",
]
