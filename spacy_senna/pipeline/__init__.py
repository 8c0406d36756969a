"""spaCy components; importing this registers their factories."""

from .span_labeler import SennaChunker, SennaNER, make_senna_chunker, make_senna_ner
from .srl import SennaSRL, make_senna_srl, srl_frames
from .tagger import SennaTagger, make_senna_tagger

__all__ = [
    "SennaChunker",
    "SennaNER",
    "SennaSRL",
    "SennaTagger",
    "make_senna_chunker",
    "make_senna_ner",
    "make_senna_srl",
    "make_senna_tagger",
    "srl_frames",
]
