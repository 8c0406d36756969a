"""An annotation run: plan the shards, skip complete ones, annotate the rest, summarise."""

from __future__ import annotations

import os
import shutil
import signal
import sys
import time
from pathlib import Path
from typing import BinaryIO, Callable, List, Optional, Sequence

from ..bundled import resolve_pipeline
from ..io.files import make_directory, missing_parents, remove_empty
from .formats import FORMATS, get_format
from .interrupt import Interrupted
from .loading import check_pipeline
from .lock import output_lock
from .output import (
    check_manifest,
    is_complete,
    output_path,
    remove_outputs,
    remove_partials,
    update_manifest,
)
from .progress import Progress
from .results import BackendRun, RunSummary, peak_rss_mib
from .resume import plan_resume
from .settings import AnnotateSettings
from .shards import STDIN, InputFile, Shard, list_inputs, plan_shards
from .worker import load_for_annotation

STDIN_COPY = ".stdin"


def annotate(
    pipeline: str,
    inputs: Sequence[str],
    output_dir: Path,
    settings: Optional[AnnotateSettings] = None,
    stdin: Optional[BinaryIO] = None,
) -> RunSummary:
    """Annotate `inputs` (files, directories, "-" for stdin) into shard files in `output_dir`.

    Shards whose output is complete are skipped (unless `settings.overwrite`); inputs or
    shards that cannot be read are reported in `RunSummary.failures` while the others
    are still annotated. A KeyboardInterrupt (or SIGTERM, see `interrupt`) while
    annotating raises `Interrupted`, which counts the complete shards. Another run
    writing into `output_dir` is refused (`OutputLocked`): one run at a time owns an
    output directory.
    """
    settings = settings or AnnotateSettings()
    settings.check()
    if not inputs:
        raise ValueError("No inputs given")
    run_start = time.perf_counter()
    pipeline = resolve_pipeline(pipeline)
    check_pipeline(pipeline)
    pipeline = _absolute(pipeline)
    output_dir = Path(os.path.abspath(output_dir))
    if output_dir.exists() and not output_dir.is_dir():
        raise ValueError(f"--output {output_dir} exists and is not a directory")
    stdin_copy = output_dir / STDIN_COPY
    files = list_inputs(inputs, settings.input_format, output_dir, stdin_copy)
    made = [] if output_dir.exists() else [output_dir, *missing_parents(output_dir)]
    make_directory(output_dir)
    try:
        with output_lock(output_dir):
            return _annotate_files(pipeline, inputs, files, output_dir, settings, stdin, run_start)
    except BaseException:
        remove_empty(made)  # a run that wrote nothing leaves no directory behind
        raise


def _annotate_files(
    pipeline: str,
    inputs: Sequence[str],
    files: List[InputFile],
    output_dir: Path,
    settings: AnnotateSettings,
    stdin: Optional[BinaryIO],
    run_start: float,
) -> RunSummary:
    """The run proper, in an output directory this process holds."""
    extension = get_format(settings.format).extension
    stdin_copy = output_dir / STDIN_COPY
    recorded = {"pipeline": pipeline, **settings.output_settings()}
    check_manifest(output_dir, recorded, settings.overwrite)
    remove_partials(output_dir)

    def start_writing() -> None:
        """Once the pipeline has loaded: record the settings and the shards' fingerprints,
        remove what --overwrite redoes and the outputs of changed input."""
        update_manifest(output_dir, {"settings": recorded})
        if settings.overwrite:
            remove_outputs(output_dir, [f.extension for f in FORMATS.values()])
        resume.record(output_dir)

    try:
        if STDIN in inputs:
            _save_stdin(stdin or sys.stdin.buffer, stdin_copy)
            # stdin cannot be resumed: what was piped in last time is unknown
            for old in output_dir.glob(f"stdin.*.{extension}"):
                old.unlink()
        plan = plan_shards(files, settings.shard_bytes, settings.doc_unit)
        resume = plan_resume(output_dir, plan.shards, extension)
        # --overwrite redoes every shard (the old outputs go once the pipeline has loaded)
        todo = list(plan.shards) if settings.overwrite else resume.todo
        changed = 0 if settings.overwrite else resume.changed
        summary = RunSummary(
            shards_skipped=len(plan.shards) - len(todo),
            shards_changed=changed,
            workers=settings.n_process,
            backend=settings.backend,
            device=f"GPU {settings.gpu_id}" if settings.gpu_id >= 0 else "CPU",
            outputs=[output_path(output_dir, shard, extension) for shard in plan.shards],
        )
        progress = Progress(len(todo), bar=settings.progress)
        for source, message in plan.errors:
            summary.failures.append((source, message))
            progress.message(f"✘ {message}")
        if summary.shards_skipped:
            progress.message(
                f"ℹ {summary.shards_skipped} of {len(plan.shards)} shards already complete in "
                f"{output_dir}; skipping them (--overwrite redoes them)"
            )
        if changed:
            progress.message(
                f"ℹ {changed} shard(s) redone: their input changed since they were annotated"
            )
        if summary.shards_skipped or changed:
            new = len(todo) - changed
            progress.message(f"ℹ {new} shard(s) with no output yet (new or unfinished input)")
        try:
            run = None
            if todo:
                run = _run_backend(pipeline, todo, output_dir, settings, progress, start_writing)
            else:
                start_writing()
        except KeyboardInterrupt as stop:  # the backend has stopped its workers
            remove_partials(output_dir)
            complete = sum(is_complete(output_dir, s, extension) for s in plan.shards)
            signum = getattr(stop, "signum", signal.SIGINT)
            raise Interrupted(signum, complete, len(plan.shards)) from None
        finally:
            progress.close()
    finally:
        stdin_copy.unlink(missing_ok=True)
    if run is not None:
        for result in run.results:
            summary.add(result)
        summary.seconds = run.seconds
        summary.worker_peak_rss_mib = run.worker_peak_rss_mib
    summary.total_seconds = time.perf_counter() - run_start
    summary.driver_peak_rss_mib = peak_rss_mib()
    if settings.backend == "local" and settings.n_process == 1:
        summary.worker_peak_rss_mib = summary.driver_peak_rss_mib
    update_manifest(output_dir, {"last_run": summary.as_dict()})
    return summary


def _run_backend(
    pipeline: str,
    shards: List[Shard],
    output_dir: Path,
    settings: AnnotateSettings,
    progress: Progress,
    loaded: Callable[[], None],
) -> BackendRun:
    """Run the shards on the chosen backend; `loaded()` once its pipelines have loaded."""
    if settings.backend == "ray":
        from .backends.ray import run_ray

        return run_ray(pipeline, shards, output_dir, settings, progress, loaded)
    # on a GPU several processes are always the pool's: spaCy's would be forked, and
    # CUDA does not survive a fork (one shard: one process)
    if settings.n_process > 1 and (len(shards) > 1 or settings.gpu_id >= 0):
        from .backends.pool import run_pool

        return run_pool(pipeline, shards, output_dir, settings, progress, loaded)
    from .backends.local import run_local

    nlp = load_for_annotation(pipeline, settings, settings.gpu_id)
    loaded()
    return run_local(nlp, shards, output_dir, settings, progress)


def _absolute(pipeline: str) -> str:
    """A pipeline directory as an absolute path (workers may run elsewhere)."""
    return os.path.abspath(pipeline) if Path(pipeline).exists() else pipeline


def _save_stdin(stream: BinaryIO, path: Path) -> None:
    """Copy stdin to `path` (in the output directory, which a failure names)."""
    try:
        with open(path, "wb") as f:
            shutil.copyfileobj(stream, f, 1 << 20)
    except OSError as err:
        problem = f"cannot save stdin there: {err.strerror or err}"
        raise OSError(err.errno, problem, str(path.parent)) from err
