"""`convert INPUT OUTPUT_DIR --converter NAME`: benchmark file -> spaCy DocBin (`.spacy`)."""

from __future__ import annotations

import argparse
from collections.abc import Iterable, Iterator
from itertools import islice
from pathlib import Path

from spacy.tokens import Doc, DocBin
from spacy.vocab import Vocab

from ..converters import CONVERTERS
from ..files import make_directory, require_file
from .docbins import write_doc_bin

FORMAT_SUFFIXES = (".txt", ".tsv", ".conll", ".conllu", ".iob", ".iob1", ".iob2")


def output_name(input_path: Path) -> str:
    """`train.tsv.gz` -> `train.spacy`, `eng.testb.gz` -> `eng.testb.spacy`."""
    name = input_path.name
    name = name.removesuffix(".gz")
    for suffix in FORMAT_SUFFIXES:
        if name.endswith(suffix) and len(name) > len(suffix):
            name = name[: -len(suffix)]
            break
    return name + ".spacy"


def merge_sentences(docs: Iterable[Doc], n_sents: int) -> Iterator[Doc]:
    """Group every `n_sents` consecutive sentence Docs into one Doc (sentence starts kept)."""
    if n_sents < 1:
        raise ValueError(f"--n-sents must be at least 1, got {n_sents}")
    docs = iter(docs)
    if n_sents == 1:
        yield from docs
        return
    while group := list(islice(docs, n_sents)):
        yield Doc.from_docs(group, ensure_whitespace=True)


def convert(input_path: Path, output_dir: Path, converter: str, n_sents: int = 1) -> Path:
    """Convert `input_path` with the named converter and write `OUTPUT_DIR/<stem>.spacy`."""
    if converter not in CONVERTERS:
        raise ValueError(f"Unknown converter {converter!r}; available: {', '.join(CONVERTERS)}")
    require_file(input_path)
    output_path = make_directory(output_dir) / output_name(input_path)
    doc_bin = DocBin(store_user_data=True)
    for doc in merge_sentences(CONVERTERS[converter](input_path, Vocab()), n_sents):
        doc_bin.add(doc)
    write_doc_bin(doc_bin, output_path)
    print(f"✔ Generated output file ({len(doc_bin)} documents): {output_path}")
    return output_path


def _run(args: argparse.Namespace) -> None:
    convert(args.input, args.output_dir, args.converter, args.n_sents)


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    """Register the `convert` subcommand."""
    parser = subparsers.add_parser(
        "convert", help="convert a benchmark file to a .spacy DocBin", description=__doc__
    )
    parser.add_argument("input", type=Path, help="input file (plain or .gz)")
    parser.add_argument("output_dir", type=Path, help="output directory (created if missing)")
    parser.add_argument(
        "--converter", "-c", required=True, help=f"input format: one of {', '.join(CONVERTERS)}"
    )
    parser.add_argument(
        "--n-sents", "-n", type=int, default=1, help="sentences per output Doc (default: 1)"
    )
    parser.set_defaults(func=_run)
