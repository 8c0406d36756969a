"""`python -m spacy_senna import-vectors VECTORS.txt OUTPUT_DIR`: re-keyed text vectors."""

from __future__ import annotations

import argparse
from pathlib import Path

from ..lm.text_vectors import import_text_vectors


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    """Register the `import-vectors` subcommand."""
    parser = subparsers.add_parser(
        "import-vectors",
        help="convert word2vec/GloVe text vectors to a SENNA-keyed vectors pipeline",
        description=(
            "Read a word2vec or GloVe text file (.gz accepted), key every row by the "
            "lowercased, digit-normalised word the senna components look up (the first "
            "row wins when forms collide: these files are sorted by frequency) and "
            "write a spaCy pipeline directory usable as [initialize] vectors."
        ),
    )
    parser.add_argument("vectors_path", type=Path, metavar="VECTORS.txt")
    parser.add_argument("output_dir", type=Path, metavar="OUTPUT_DIR")
    parser.add_argument(
        "--max-words",
        type=int,
        default=0,
        help="keep only the first N normalised words (default: all)",
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> None:
    """Run `import-vectors` from parsed arguments."""
    if args.max_words < 0:
        raise ValueError(f"--max-words must be 0 (all) or more, not {args.max_words}.")
    stats = import_text_vectors(args.vectors_path, args.output_dir, max_words=args.max_words)
    print(
        f"✔ Wrote {stats['rows']:,} × {stats['dim']} vectors to {args.output_dir} "
        f"({stats['lines']:,} rows read, {stats['merged']:,} merged into an earlier form)."
    )
