"""en_senna: the pipeline that ships inside the wheel (trained on openly licensed data).

`spacy.load("en_senna")` works once the small `en_senna` distribution from this repository
(packages/en_senna) is installed: spaCy resolves a pipeline name through an installed
distribution, and that one hands over to `load` here. The weights live once, here.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import spacy
from spacy.language import Language

#: the name spaCy and `annotate` know the bundled pipeline by
BUNDLED_NAME = "en_senna"


def bundled_path() -> Path:
    """The directory of the bundled pipeline inside the installed package."""
    return Path(__file__).parent / "pipelines" / BUNDLED_NAME


def load(**overrides: Any) -> Language:
    """Load the bundled pipeline; keyword arguments go to `spacy.load` (`disable`, `exclude`,
    `config`, ...)."""
    path = bundled_path()
    if not (path / "config.cfg").is_file():
        raise FileNotFoundError(
            f"The bundled pipeline is missing from this installation ({path}): reinstall "
            "spacy-senna from a wheel or a full checkout"
        )
    return spacy.load(path, **overrides)


def resolve_pipeline(name: str) -> str:
    """`name` as spaCy can load it: the bundled pipeline's directory for "en_senna" when no
    such path or distribution exists (spacy-senna installed without packages/en_senna)."""
    if name == BUNDLED_NAME and not Path(name).exists() and not spacy.util.is_package(name):
        return str(bundled_path())
    return name
