"""spacy-senna: SENNA (Collobert et al. 2011) sequence labelers as spaCy v3 components.

Importing the package registers its factories, architectures, features, readers and
scorers; installed entry points make `spacy train` and `spacy.load` find them without
`--code`.
"""

from . import (  # noqa: F401
    allocator,
    architectures,
    features,
    gazetteer,
    models,
    readers,
    release_memory,
    scoring,
    word_table,
)
from .about import __version__
from .frames import SrlFrame, srl_frames
from .layers.crf import CRF
from .pipeline import SennaChunker, SennaNER, SennaSRL, SennaTagger, SennaWarning, SennaWords
from .render import render_frames

__all__ = [
    "__version__",
    "CRF",
    "SennaChunker",
    "SennaNER",
    "SennaSRL",
    "SennaTagger",
    "SennaWarning",
    "SennaWords",
    "SrlFrame",
    "srl_frames",
    "render_frames",
]
