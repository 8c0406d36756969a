"""spaCy components; importing this registers their factories."""

from .chunker import SennaChunker, make_senna_chunker
from .ner import SennaNER, make_senna_ner
from .parser import SennaParser, make_senna_parser
from .sequence_labeler import SennaWarning
from .srl import SennaSRL, make_senna_srl
from .tagger import SennaTagger, make_senna_tagger
from .words import SennaWords, make_senna_words

__all__ = [
    "SennaChunker",
    "SennaNER",
    "SennaParser",
    "SennaSRL",
    "SennaTagger",
    "SennaWarning",
    "SennaWords",
    "make_senna_chunker",
    "make_senna_ner",
    "make_senna_parser",
    "make_senna_srl",
    "make_senna_tagger",
    "make_senna_words",
]
