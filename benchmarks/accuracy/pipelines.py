"""Pipelines put together from trained ones, for the benchmark scripts."""

from pathlib import Path
from typing import Sequence

import spacy
from spacy.language import Language


def put_before(nlp: Language, paths: Sequence[str]) -> Language:
    """Add every component of the pipelines at `paths` before `nlp`'s own (a cascade whose
    parts were trained apart, e.g. a PT0 chunker before senna_srl), each named
    `<its training directory>_<component>`."""
    first = nlp.pipe_names[0] if nlp.pipe_names else None
    for path in paths:
        source = spacy.load(path)
        for name in source.pipe_names:
            nlp.add_pipe(name, name=f"{Path(path).parent.name}_{name}", source=source, before=first)
    return nlp
