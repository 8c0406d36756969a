"""`python -m spacy_senna COMMAND ...`: converters, scoring and LM pretraining."""

import argparse
import importlib
import sys
from typing import List, Optional

# one module per subcommand in spacy_senna/commands/, each exposing add_parser(subparsers)
COMMANDS = (
    "convert",
    "split_dev",
    "build_gazetteer",
    "score",
    "pretrain_lm",
    "nearest_neighbours",
    "import_vectors",
    "annotate",
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m spacy_senna", description=__doc__)
    subparsers = parser.add_subparsers(dest="command", required=True)
    for name in COMMANDS:
        importlib.import_module(f"spacy_senna.commands.{name}").add_parser(subparsers)
    return parser


def main(argv: Optional[List[str]] = None) -> None:
    args = build_parser().parse_args(argv)
    try:
        args.func(args)
    except (ValueError, FileNotFoundError) as err:
        print(f"✘ {err}", file=sys.stderr)
        sys.exit(1)
