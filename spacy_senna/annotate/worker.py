"""Annotate one shard with a loaded pipeline and write its output file."""

from __future__ import annotations

from pathlib import Path
from typing import List, Optional

from spacy.language import Language

from .formats import get_format
from .layers import pipeline_layers
from .output import AtomicFile, output_path
from .records import InputError, Record, read_records
from .results import ShardResult, count_words
from .settings import AnnotateSettings
from .shards import Shard


def annotate_shard(
    nlp: Language, shard: Shard, output_dir: Path, settings: AnnotateSettings
) -> ShardResult:
    """Read, annotate and write one shard; input errors are returned, not raised."""
    result = ShardResult(shard.name, shard.source)
    try:
        records = shard_records(shard, settings)
    except InputError as err:
        result.error = str(err)
        return result
    doc_format = get_format(settings.format)(pipeline_layers(nlp))
    out = AtomicFile(output_path(output_dir, shard, doc_format.extension))
    try:
        docs = nlp.pipe(records, as_tuples=True, batch_size=batch_size(nlp, settings))
        for doc, meta in docs:
            out.write(doc_format.add(doc, meta))
            result.docs += 1
            result.words += count_words(doc)
        out.write(doc_format.finish())
        out.commit()
    except BaseException:
        out.abort()
        raise
    return result


def shard_records(shard: Shard, settings: AnnotateSettings) -> List[Record]:
    """The shard's docs; unreadable or malformed input raises InputError."""
    try:
        return read_records(
            shard, settings.doc_unit, settings.max_doc_chars, settings.encoding_errors
        )
    except OSError as err:
        raise InputError(f"cannot read {shard.source}: {err.strerror or err}") from err


def batch_size(nlp: Language, settings: AnnotateSettings) -> int:
    """Docs per batch: the setting, or the pipeline's own."""
    chosen: Optional[int] = settings.batch_size
    return chosen if chosen is not None else nlp.batch_size
