"""Which annotation layers a pipeline writes, read from its components' factories and configs."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from spacy.language import Language


@dataclass(frozen=True)
class Layers:
    """The layers the output formats show (None / False: the pipeline does not write it)."""

    tags: bool = False
    chunks_key: Optional[str] = None
    ents: bool = False
    ents_scores_key: Optional[str] = None
    srl_key: Optional[str] = None
    constituents_key: Optional[str] = None


def pipeline_layers(nlp: Language) -> Layers:
    """POS tags, chunks, entities, SRL frames and constituency trees as the pipeline's
    components write them.

    senna_chunker writes `doc.spans[spans_key]`, senna_ner `doc.ents` with probabilities
    in `doc.spans[scores_key]`, senna_srl frames under `spans_key`, senna_parser the
    constituents under `spans_key`; any component that assigns `token.tag` or `doc.ents`
    (spaCy's own tagger or ner too) counts.
    """
    tags = ents = False
    chunks_key = ents_scores_key = srl_key = constituents_key = None
    for name in nlp.pipe_names:
        meta = nlp.get_pipe_meta(name)
        config = nlp.get_pipe_config(name)
        tags = tags or "token.tag" in meta.assigns
        ents = ents or "doc.ents" in meta.assigns
        if meta.factory == "senna_chunker" and chunks_key is None:
            chunks_key = config.get("spans_key", "chunks")
        elif meta.factory == "senna_ner" and ents_scores_key is None:
            ents_scores_key = config.get("scores_key", "senna_ents")
        elif meta.factory == "senna_srl" and srl_key is None:
            srl_key = config.get("spans_key", "srl")
        elif meta.factory == "senna_parser" and constituents_key is None:
            constituents_key = config.get("spans_key", "constituents")
    return Layers(tags, chunks_key, ents, ents_scores_key, srl_key, constituents_key)
