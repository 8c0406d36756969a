"""en_senna for `spacy.load("en_senna")`: the pipeline bundled in spacy-senna."""

from typing import Any

from spacy.language import Language

from spacy_senna.bundled import load as _load_bundled


def load(**overrides: Any) -> Language:
    """Load en_senna; keyword arguments go to `spacy.load` (`disable`, `exclude`, ...)."""
    return _load_bundled(**overrides)
