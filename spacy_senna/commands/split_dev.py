"""`split-dev CORPUS.spacy OUTPUT_DIR`: carve a dev set from the end of a training set.

The paper validated chunking "by splitting the training set" (CoNLL-2000 has no dev
set). The last `--fraction` of the documents becomes `dev.spacy`, the rest `train.spacy`:
deterministic, so every run and every re-measurement uses the same split.
"""

import argparse
from contextlib import ExitStack
from pathlib import Path

from spacy.tokens import DocBin
from spacy.vocab import Vocab

from ..io.files import atomic_output, check_directory
from .docbins import read_docs


def split_dev(corpus: Path, output_dir: Path, fraction: float = 0.1) -> None:
    """Write the last `fraction` of the Docs in `corpus` to OUTPUT_DIR/dev.spacy, the rest
    to OUTPUT_DIR/train.spacy."""
    if not 0 < fraction < 1:
        raise ValueError(f"--fraction must be between 0 and 1, got {fraction}")
    docs = read_docs(corpus, Vocab())
    n_dev = max(1, round(len(docs) * fraction))
    if n_dev >= len(docs):
        raise ValueError(f"{corpus}: too few documents ({len(docs)}) to split")
    check_directory(output_dir)
    parts = {"train": docs[:-n_dev], "dev": docs[-n_dev:]}
    with ExitStack() as outputs:  # both files are renamed into place only if both are written
        for name, part in parts.items():
            tmp = outputs.enter_context(atomic_output(output_dir / f"{name}.spacy"))
            DocBin(docs=part, store_user_data=True).to_disk(tmp)
    for name, part in parts.items():
        print(f"✔ {name}.spacy: {len(part)} documents")


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("split-dev", help="split the last documents off as dev set")
    parser.add_argument("corpus", type=Path)
    parser.add_argument("output_dir", type=Path)
    parser.add_argument("--fraction", type=float, default=0.1, help="share of documents for dev")
    parser.set_defaults(func=lambda a: split_dev(a.corpus, a.output_dir, a.fraction))
