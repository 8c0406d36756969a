"""`annotate [PIPELINE] [INPUT...] [--output DIR]`: annotate text with a trained pipeline
(by default the bundled en_senna), into shard files or, without --output, to stdout."""

from __future__ import annotations

import argparse
import os
import shutil
import signal
import sys
import tempfile
from pathlib import Path
from typing import List, Tuple

from ..annotate import AnnotateSettings, annotate
from ..annotate.formats import FORMATS
from ..annotate.interrupt import (
    Interrupted,
    exit_now,
    stop_children,
    stop_on_signals,
)
from ..annotate.loading import SENTENCES, is_pipeline
from ..annotate.records import DOC_UNITS, ENCODING_ERRORS
from ..annotate.settings import BACKENDS, INPUT_FORMATS
from ..bundled import BUNDLED_NAME

DEFAULTS = AnnotateSettings()


def _megabytes(text: str) -> int:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of MB, not {text!r}") from None
    return int(value * 2**20)


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    """Register the `annotate` subcommand."""
    parser = subparsers.add_parser(
        "annotate",
        help="annotate text files with a trained pipeline (SENNA, CoNLL, JSONL or .spacy)",
        description=(
            "Annotate text with a trained pipeline, disk to disk. Each input file, or each "
            "--shard-size piece of a large one, is a shard; its output "
            "(OUTPUT/NAME.NNNNN.FORMAT) is written under a temporary name and renamed when "
            "complete, so a re-run skips the finished shards. Inputs: text files (one doc "
            'per line, or per paragraph), directories of them, JSONL ({"text": ...} per '
            "line, other keys kept as metadata), '-' for stdin."
        ),
    )
    add = parser.add_argument
    add(
        "inputs",
        nargs="*",
        metavar="[PIPELINE] INPUT",
        help="text/JSONL files, directories, or - for stdin (the default); a first argument "
        "that names a pipeline (a directory with a config.cfg, or an installed package) is "
        f"the pipeline, as --pipeline (default {BUNDLED_NAME}, the bundled pipeline)",
    )
    add(
        "--pipeline",
        "-p",
        default=None,
        help=f"pipeline directory or installed package name (default {BUNDLED_NAME})",
    )
    add(
        "--output",
        "-o",
        type=Path,
        default=None,
        help="output directory, resumed if present (default: write to stdout, as SENNA does)",
    )
    add(
        "--format",
        "-f",
        choices=list(FORMATS),
        default=DEFAULTS.format,
        help="senna: SENNA's columns (IOBES); conll: CoNLL columns (IOB2, SRL brackets); "
        "jsonl: tokens, tags, scored spans, frames; spacy: DocBin (default %(default)s)",
    )
    add(
        "--input-format",
        choices=INPUT_FORMATS,
        default=DEFAULTS.input_format,
        help="auto: .jsonl files are JSONL, others (and stdin) text (default %(default)s)",
    )
    add(
        "--doc-unit",
        choices=DOC_UNITS,
        default=DEFAULTS.doc_unit,
        help="one doc per text line, or per blank-line separated paragraph (default %(default)s)",
    )
    add(
        "--sentences",
        choices=SENTENCES,
        default=DEFAULTS.sentences,
        help="split: sentence-split each doc (spaCy's sentencizer unless the pipeline "
        "segments); doc: each doc is one sentence, as SENNA reads lines (default %(default)s)",
    )
    add(
        "--pretokenized",
        action="store_true",
        help="tokens are separated by whitespace (SENNA's -usrtokens)",
    )
    add(
        "--shard-size",
        type=_megabytes,
        default=DEFAULTS.shard_bytes,
        metavar="MB",
        help=f"MB of input per shard (default {DEFAULTS.shard_bytes // 2**20})",
    )
    add(
        "--max-doc-chars",
        type=int,
        default=DEFAULTS.max_doc_chars,
        help="longer text docs are split after whitespace (default %(default)s)",
    )
    add(
        "--encoding-errors",
        choices=ENCODING_ERRORS,
        default=DEFAULTS.encoding_errors,
        help="strict: non-UTF-8 input is an error naming file and byte offset; replace: "
        "such bytes become U+FFFD (default %(default)s)",
    )
    add(
        "--enable",
        action="append",
        default=[],
        metavar="COMPONENT",
        help="also run a component the pipeline keeps disabled (repeatable): "
        "senna_parser gives en_senna's parse trees, SENNA's PSG column",
    )
    add("--batch-size", type=int, default=None, help="docs per batch (default: the pipeline's)")
    add(
        "--n-process",
        "-n",
        type=int,
        default=DEFAULTS.n_process,
        help="worker processes, each loading the pipeline once and annotating whole shards "
        "(spaCy's multiprocessing when there is a single shard on the CPU), or Ray workers "
        "with --backend ray (default %(default)s)",
    )
    add("--backend", choices=BACKENDS, default=DEFAULTS.backend, help="default %(default)s")
    add("--address", default=None, help="Ray cluster address (default: start a local Ray)")
    add(
        "--gpu-id",
        type=int,
        default=-1,
        help="GPU to run on (spacy.require_gpu; default CPU); with --n-process N, N processes "
        "share it",
    )
    add("--overwrite", action="store_true", help="redo shards whose output is complete")
    add(
        "--progress",
        choices=["auto", "bar", "lines"],
        default="auto",
        help="auto: a bar on a terminal, status lines otherwise",
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> None:
    """Run `annotate` from parsed arguments; exit 1 if any input or shard failed, 130 or
    143 (128 + the signal) with one line on SIGINT or SIGTERM."""
    with stop_on_signals():
        try:
            _run(args)
        except KeyboardInterrupt as stop:
            stop_children()  # whatever the backend left: no worker outlives the run
            if not isinstance(stop, Interrupted):
                stop = Interrupted(signal.SIGINT)
            print(stop.line(resumable=args.output is not None), file=sys.stderr)
            exit_now(stop.exit_status)


def _run(args: argparse.Namespace) -> None:
    settings = AnnotateSettings(
        format=args.format,
        input_format=args.input_format,
        doc_unit=args.doc_unit,
        sentences=args.sentences,
        pretokenized=args.pretokenized,
        shard_bytes=args.shard_size,
        max_doc_chars=args.max_doc_chars,
        encoding_errors=args.encoding_errors,
        enable=tuple(args.enable),
        batch_size=args.batch_size,
        n_process=args.n_process,
        backend=args.backend,
        address=args.address,
        gpu_id=args.gpu_id,
        overwrite=args.overwrite,
        progress={"auto": None, "bar": True, "lines": False}[args.progress],
    )
    pipeline, inputs = pipeline_and_inputs(args.pipeline, args.inputs)
    if inputs == ["-"] and sys.stdin.isatty():
        print("ℹ Reading text from stdin (end it with Ctrl-D)", file=sys.stderr)
    if args.output is None:
        summary = _annotate_to_stdout(pipeline, inputs, settings)
        print("\n".join(summary.lines()), file=sys.stderr)
    else:
        summary = annotate(pipeline, inputs, args.output, settings)
        print("\n".join(summary.lines()))
    if summary.failures:
        sys.exit(1)


def pipeline_and_inputs(pipeline: str | None, positionals: List[str]) -> Tuple[str, List[str]]:
    """The pipeline and the inputs of `annotate [PIPELINE] [INPUT...]`: the first positional
    is the pipeline when it names one and --pipeline is not given; no input means stdin.

    A first positional that is neither a pipeline nor an existing input, with more
    positionals after it, raises FileNotFoundError: it was most likely meant as the
    pipeline."""
    first = positionals[0] if positionals else None
    if pipeline is None and first is not None:
        if first == BUNDLED_NAME or is_pipeline(first):
            pipeline, positionals = first, positionals[1:]
        elif len(positionals) > 1 and first != "-" and not os.path.lexists(first):
            raise FileNotFoundError(
                f"{first} is neither an installed pipeline (spacy.load could not find it) "
                "nor an input file or folder: give a pipeline name or path first, or only "
                f"inputs to annotate with {BUNDLED_NAME}"
            )
    return pipeline or BUNDLED_NAME, positionals or ["-"]


def _annotate_to_stdout(pipeline: str, inputs: List[str], settings: AnnotateSettings):
    """Annotate into a temporary directory and copy every shard's output to stdout in order."""
    with tempfile.TemporaryDirectory(prefix="spacy-senna-annotate-") as tmp:
        summary = annotate(pipeline, inputs, Path(tmp) / "out", settings)
        out = sys.stdout.buffer
        for path in summary.outputs:
            if path.is_file():
                with open(path, "rb") as data:
                    shutil.copyfileobj(data, out)
        out.flush()
    return summary
