"""spacy-senna: SENNA (Collobert et al. 2011) sequence labelers as spaCy v3 components.

Importing the package registers its factories, architectures and features; installed
entry points make `spacy train` and `spacy.load` find them without `--code`.
"""

from . import features, gazetteer, models, readers, scoring, srl_scoring  # noqa: F401
from .about import __version__
from .layers.crf import CRF
from .pipeline import SennaChunker, SennaNER, SennaSRL, SennaTagger, srl_frames

__all__ = [
    "__version__",
    "CRF",
    "SennaChunker",
    "SennaNER",
    "SennaSRL",
    "SennaTagger",
    "srl_frames",
]
