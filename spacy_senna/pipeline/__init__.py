"""spaCy components; importing this registers their factories."""

from .chunker import SennaChunker, make_senna_chunker
from .ner import SennaNER, make_senna_ner
from .sequence_labeler import SennaWarning
from .srl import SennaSRL, make_senna_srl
from .tagger import SennaTagger, make_senna_tagger
from .words import SennaWords, make_senna_words

__all__ = [
    "SennaChunker",
    "SennaNER",
    "SennaSRL",
    "SennaTagger",
    "SennaWarning",
    "SennaWords",
    "make_senna_chunker",
    "make_senna_ner",
    "make_senna_srl",
    "make_senna_tagger",
    "make_senna_words",
]
