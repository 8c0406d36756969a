"""Annotate one shard with a loaded pipeline and write its output file."""

from __future__ import annotations

import os
import traceback
from pathlib import Path
from typing import List, Optional, Union

from spacy.attrs import LEMMA, MORPH, POS
from spacy.language import Language
from spacy.pipeline import AttributeRuler

from ..runtime.allocator import keep_freed_memory
from .formats import get_format
from .layers import pipeline_layers
from .loading import load_pipeline
from .output import AtomicFile, output_path
from .records import InputError, Record, read_records
from .results import ShardResult, count_words, peak_rss_mib
from .settings import AnnotateSettings
from .shards import Shard

#: the token attributes set by the components annotate may skip, as a feature names them
READ_ATTRIBUTES = {"pos_", "pos", "morph", "lemma_", "lemma"}


def annotate_shard(
    nlp: Language, shard: Shard, output_dir: Path, settings: AnnotateSettings
) -> ShardResult:
    """Read, annotate and write one shard; input errors are returned, not raised."""
    result = ShardResult(shard.name, shard.source, batch_size=batch_size(nlp, settings))
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


class ShardWorker:
    """A worker process's pipeline, loaded once, annotating shard after shard (the body
    of a Ray actor or of a local pool process)."""

    def __init__(self, pipeline: str, settings: AnnotateSettings, gpu_id: int) -> None:
        self.settings = settings
        self.nlp = load_for_annotation(pipeline, settings, gpu_id)

    def ready(self) -> int:
        return os.getpid()

    def run(self, shard: Shard, output_dir: str) -> ShardResult:
        try:
            result = annotate_shard(self.nlp, shard, Path(output_dir), self.settings)
        except OSError as err:
            result = ShardResult(shard.name, shard.source, error=_os_error(err))
        except Exception as err:
            message = "".join(traceback.format_exception_only(type(err), err)).strip()
            result = ShardResult(shard.name, shard.source, error=f"worker error: {message}")
        result.peak_rss_mib = peak_rss_mib()
        return result


def _os_error(err: OSError) -> str:
    """`FILE: problem` for an error naming its file (a full disk names the output)."""
    if err.filename is None:
        return f"worker error: {err}"
    problem = err.strerror or str(err)
    return f"{os.fsdecode(err.filename)}: {problem[:1].lower()}{problem[1:]}"


def load_for_annotation(pipeline: str, settings: AnnotateSettings, gpu_id: int) -> Language:
    """`load_pipeline` with the annotate run's sentence, token and length settings; span
    labelers skip their span probabilities where the output format holds none, and
    compute them with the spans where it holds every one; the components that only set
    `pos_`, `morph` and `lemma_` are skipped where it holds none of those. The process
    keeps the memory a batch frees for the next (`keep_freed_memory`), whatever the
    pipeline's config says."""
    keep_freed_memory()
    nlp = load_pipeline(
        pipeline,
        gpu_id=gpu_id,
        sentences=settings.sentences,
        pretokenized=settings.pretokenized,
        max_doc_chars=settings.max_doc_chars,
        enable=settings.enable,
    )
    output_format = get_format(settings.format)
    set_span_scores(nlp, "eager" if output_format.writes_scores else False)
    if not output_format.writes_token_attributes:
        for name in unread_attribute_components(nlp):
            nlp.disable_pipe(name)
    return nlp


def unread_attribute_components(nlp: Language) -> List[str]:
    """The components that only set `pos_`, `morph` and `lemma_` (a lemmatizer, an
    attribute ruler whose rules set nothing else) when every component after them is one
    of those or a senna labeler whose features read none of them: their work would not
    be written."""
    only_attributes = [sets_only_attributes(nlp, name) for name in nlp.pipe_names]
    names = []
    for i, name in enumerate(nlp.pipe_names):
        later = zip(nlp.pipe_names[i + 1 :], only_attributes[i + 1 :])
        if only_attributes[i] and all(
            skipped
            or not READ_ATTRIBUTES.intersection(
                getattr(nlp.get_pipe(other), "input_attrs", READ_ATTRIBUTES)
            )
            for other, skipped in later
        ):
            names.append(name)
    return names


def sets_only_attributes(nlp: Language, name: str) -> bool:
    """Whether the component `name` sets nothing but `pos_`, `morph` and `lemma_`."""
    factory = nlp.get_pipe_meta(name).factory
    if factory in ("lemmatizer", "senna_lemmatizer"):
        return True
    component = nlp.get_pipe(name)
    return isinstance(component, AttributeRuler) and all(
        attr in (POS, MORPH, LEMMA) for attrs in component.attrs for attr in attrs
    )


def set_span_scores(nlp: Language, setting: Union[bool, str]) -> None:
    """Set `span_scores` of every component that computes span probabilities when read
    (the senna span labelers' default): false skips them (the same spans, sooner),
    "eager" computes them with the spans (they are all written: no second pass)."""
    for _, component in nlp.pipeline:
        if getattr(component, "span_scores", False) is True:
            component.span_scores = setting
