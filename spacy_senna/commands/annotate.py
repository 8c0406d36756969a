"""`annotate PIPELINE INPUT... --output DIR`: annotate text files with a trained pipeline."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..annotate import AnnotateSettings, annotate
from ..annotate.formats import FORMATS
from ..annotate.loading import SENTENCES
from ..annotate.records import DOC_UNITS, ENCODING_ERRORS
from ..annotate.settings import BACKENDS, INPUT_FORMATS

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
    add("pipeline", help="pipeline directory or installed package name")
    add("inputs", nargs="+", metavar="INPUT", help="text/JSONL files, directories, or -")
    add("--output", "-o", type=Path, required=True, help="output directory (resumed if present)")
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
    add("--batch-size", type=int, default=None, help="docs per batch (default: the pipeline's)")
    add(
        "--n-process",
        "-n",
        type=int,
        default=DEFAULTS.n_process,
        help="worker processes, each loading the pipeline once and annotating whole shards "
        "(spaCy's multiprocessing when there is a single shard), or Ray workers with "
        "--backend ray (default %(default)s)",
    )
    add("--backend", choices=BACKENDS, default=DEFAULTS.backend, help="default %(default)s")
    add("--address", default=None, help="Ray cluster address (default: start a local Ray)")
    add("--gpu-id", type=int, default=-1, help="GPU to run on (spacy.require_gpu; default CPU)")
    add("--overwrite", action="store_true", help="redo shards whose output is complete")
    add(
        "--progress",
        choices=["auto", "bar", "lines"],
        default="auto",
        help="auto: a bar on a terminal, status lines otherwise",
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> None:
    """Run `annotate` from parsed arguments; exit 1 if any input or shard failed."""
    settings = AnnotateSettings(
        format=args.format,
        input_format=args.input_format,
        doc_unit=args.doc_unit,
        sentences=args.sentences,
        pretokenized=args.pretokenized,
        shard_bytes=args.shard_size,
        max_doc_chars=args.max_doc_chars,
        encoding_errors=args.encoding_errors,
        batch_size=args.batch_size,
        n_process=args.n_process,
        backend=args.backend,
        address=args.address,
        gpu_id=args.gpu_id,
        overwrite=args.overwrite,
        progress={"auto": None, "bar": True, "lines": False}[args.progress],
    )
    summary = annotate(args.pipeline, args.inputs, args.output, settings)
    print("\n".join(summary.lines()))
    if summary.failures:
        sys.exit(1)
