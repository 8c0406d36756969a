"""`convert INPUT OUTPUT_DIR --converter NAME`: benchmark file -> spaCy DocBin (`.spacy`)."""

from __future__ import annotations

import argparse
from collections.abc import Iterable, Iterator
from itertools import groupby, islice
from pathlib import Path

from spacy.tokens import Doc, DocBin
from spacy.vocab import Vocab

from ..corpora.converters import CONVERTERS, DOCUMENT_KEY
from ..io.files import check_directory, require_file
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
        yield Doc.from_docs(_without_document(group), ensure_whitespace=True)


def merge_documents(docs: Iterable[Doc], source: Path) -> Iterator[Doc]:
    """One Doc per document of the input (sentence starts kept), for formats that mark
    documents (CoNLL-2003's -DOCSTART-)."""
    for document, group in groupby(docs, key=lambda doc: _document(doc, source)):
        merged = Doc.from_docs(_without_document(group), ensure_whitespace=True)
        merged.user_data[DOCUMENT_KEY] = document
        yield merged


def _without_document(docs: Iterable[Doc]) -> list[Doc]:
    """The docs without their document number, which Doc.from_docs cannot merge."""
    docs = list(docs)
    for doc in docs:
        doc.user_data.pop(DOCUMENT_KEY, None)
    return docs


def _document(doc: Doc, source: Path) -> int:
    if DOCUMENT_KEY not in doc.user_data:
        raise ValueError(
            f"{source}: this format marks no documents, so --documents cannot group its "
            f"sentences; use --n-sents to group a fixed number of sentences instead"
        )
    return doc.user_data[DOCUMENT_KEY]


def convert(
    input_path: Path,
    output_dir: Path,
    converter: str,
    n_sents: int = 1,
    documents: bool = False,
) -> Path:
    """Convert `input_path` with the named converter and write `OUTPUT_DIR/<stem>.spacy`:
    one Doc per sentence, per `n_sents` sentences, or per document (`documents`)."""
    if converter not in CONVERTERS:
        raise ValueError(f"Unknown converter {converter!r}; available: {', '.join(CONVERTERS)}")
    if documents and n_sents != 1:
        raise ValueError("Use either --documents or --n-sents, not both.")
    require_file(input_path)
    output_path = check_directory(output_dir) / output_name(input_path)
    doc_bin = DocBin(store_user_data=True)
    docs = CONVERTERS[converter](input_path, Vocab())
    grouped = merge_documents(docs, input_path) if documents else merge_sentences(docs, n_sents)
    for doc in grouped:
        doc_bin.add(doc)
    write_doc_bin(doc_bin, output_path)
    print(f"✔ Generated output file ({len(doc_bin)} documents): {output_path}")
    return output_path


def _run(args: argparse.Namespace) -> None:
    convert(args.input, args.output_dir, args.converter, args.n_sents, args.documents)


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
    parser.add_argument(
        "--documents",
        action="store_true",
        help="one output Doc per document of the input (conll2003: -DOCSTART- lines), "
        "for models that read document context",
    )
    parser.set_defaults(func=_run)
