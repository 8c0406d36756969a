"""Annotate shards on this machine: one `nlp.pipe` stream, `n_process` worker processes.

All shards flow through a single `nlp.pipe` call, so spaCy's worker processes start once.
Each shard is padded with empty docs to a whole number of batches: every batch then holds
docs of one shard only, exactly the batches a Ray worker forms for that shard. The
components' probabilities can differ in their last digits with the batch a doc is in
(seen here: a doc alone vs. in a batch of three), so this keeps the output bytes the same
whatever the backend.
"""

from __future__ import annotations

import multiprocessing
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Dict, Iterator, List, Optional, Tuple

from spacy.language import Language

from ..formats import DocFormat, get_format
from ..layers import pipeline_layers
from ..output import AtomicFile, output_path
from ..progress import Progress
from ..records import InputError
from ..results import BackendRun, ShardResult, count_words, peak_rss_mib
from ..settings import AnnotateSettings
from ..shards import Shard
from ..worker import batch_size, shard_records

_PADDING = -1


@dataclass
class _OpenShard:
    result: ShardResult
    out: AtomicFile
    doc_format: DocFormat
    expected: int


def run_local(
    nlp: Language,
    shards: List[Shard],
    output_dir: Path,
    settings: AnnotateSettings,
    progress: Progress,
) -> BackendRun:
    """Annotate `shards` with the loaded pipeline."""
    started = time.perf_counter()
    progress.start()
    layers = pipeline_layers(nlp)
    format_class = get_format(settings.format)
    size = batch_size(nlp, settings)
    results: List[ShardResult] = []
    open_shards: Dict[int, _OpenShard] = {}

    def finish(state: _OpenShard, counted: bool) -> None:
        state.out.write(state.doc_format.finish())
        state.out.commit()
        results.append(state.result)
        progress.shard_done(state.result, counted=counted)

    def stream() -> Iterator[Tuple[str, Tuple[int, Optional[Dict[str, Any]]]]]:
        for number, shard in enumerate(shards):
            try:
                records = shard_records(shard, settings)
            except InputError as err:
                failed = ShardResult(shard.name, shard.source, error=str(err))
                results.append(failed)
                progress.shard_done(failed)
                continue
            state = _OpenShard(
                ShardResult(shard.name, shard.source, batch_size=size),
                AtomicFile(output_path(output_dir, shard, format_class.extension)),
                format_class(layers),
                len(records),
            )
            if not records:
                finish(state, counted=True)
                continue
            open_shards[number] = state
            for text, meta in records:
                yield text, (number, meta)
            for _ in range(-len(records) % size):
                yield "", (_PADDING, None)

    try:
        docs = nlp.pipe(stream(), as_tuples=True, batch_size=size, n_process=settings.n_process)
        for doc, (number, meta) in docs:
            if number == _PADDING:
                continue
            state = open_shards[number]
            state.out.write(state.doc_format.add(doc, meta))
            words = count_words(doc)
            state.result.docs += 1
            state.result.words += words
            progress.docs_done(1, words)
            if state.result.docs == state.expected:
                del open_shards[number]
                finish(state, counted=True)
    finally:
        for state in open_shards.values():
            state.out.abort()
    seconds = time.perf_counter() - started
    if settings.n_process > 1:
        multiprocessing.active_children()  # reap the finished workers to read their usage
        return BackendRun(results, seconds, peak_rss_mib(children=True))
    return BackendRun(results, seconds, peak_rss_mib())
