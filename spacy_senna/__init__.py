"""spacy-senna: SENNA (Collobert et al. 2011) sequence labelers as spaCy v3 components.

Importing the package registers its factories, architectures, features, readers and
scorers; installed entry points make `spacy train` and `spacy.load` find them without
`--code`.
"""

# importing these registers the factories' networks, features, readers, scorers and callbacks
from . import features, scoring  # noqa: F401
from .about import __version__
from .corpora import readers  # noqa: F401
from .features import gazetteer  # noqa: F401
from .layers.crf import CRF
from .models import architectures, word_table  # noqa: F401
from .pipeline import SennaChunker, SennaNER, SennaSRL, SennaTagger, SennaWarning, SennaWords
from .runtime import allocator, release_memory  # noqa: F401
from .srl.frames import SrlFrame, srl_frames
from .srl.render import render_frames

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
