"""spaCy components; importing this registers their factories."""

from .tagger import SennaTagger, make_senna_tagger

__all__ = ["SennaTagger", "make_senna_tagger"]
