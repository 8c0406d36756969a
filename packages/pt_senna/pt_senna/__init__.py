"""pt_senna for `spacy.load("pt_senna")`: spacy-senna's Portuguese pipeline (open data)."""

from pathlib import Path
from typing import Any

import spacy
from spacy.language import Language

#: the pipeline's files, inside this package
PIPELINE = Path(__file__).parent / "pipeline"


def load(**overrides: Any) -> Language:
    """Load pt_senna; keyword arguments go to `spacy.load` (`disable`, `exclude`, ...)."""
    if not (PIPELINE / "config.cfg").is_file():
        raise FileNotFoundError(
            f"pt_senna's pipeline is missing from this installation ({PIPELINE}): reinstall "
            "it from packages/pt_senna of a full spacy-senna checkout"
        )
    return spacy.load(PIPELINE, **overrides)
