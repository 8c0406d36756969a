"""`python -m spacy_senna nearest-neighbours VECTORS_DIR WORD ...` (paper Table 7)."""

from __future__ import annotations

import argparse
from pathlib import Path

from ..lm.neighbours import PAPER_QUERIES, format_neighbours, nearest_neighbours
from ..lm.vectors_pipeline import read_vectors


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    """Register the `nearest-neighbours` subcommand."""
    parser = subparsers.add_parser(
        "nearest-neighbours",
        help="Euclidean nearest neighbours of words in a vectors pipeline",
        description=(
            "Print the k nearest words (Euclidean distance, like paper Table 7) of each "
            "query word in a pipeline directory's vectors; queries are lowercased and "
            "digit-normalised. Without words, the paper's queries are used."
        ),
    )
    parser.add_argument("vectors_dir", type=Path, metavar="VECTORS_DIR")
    parser.add_argument(
        "words",
        nargs="*",
        metavar="WORD",
        help=f"query words (default: {' '.join(PAPER_QUERIES)})",
    )
    parser.add_argument("--k", type=int, default=10, help="neighbours per word (default 10)")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> None:
    """Run `nearest-neighbours` from parsed arguments."""
    if args.k < 1:
        raise ValueError(f"--k must be at least 1, not {args.k}.")
    words, table = read_vectors(args.vectors_dir)
    queries = args.words or list(PAPER_QUERIES)
    print(format_neighbours(nearest_neighbours(words, table, queries, k=args.k), words))
