"""`python -m spacy_senna COMMAND ...`: converters, scoring and LM pretraining."""

import argparse
import importlib
import sys
from typing import List, Optional

from .commands.errors import error_line

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
    """Run a subcommand; input/output problems exit with status 1 and one `✘` line on
    stderr, unexpected errors propagate with their traceback."""
    args = build_parser().parse_args(argv)
    try:
        args.func(args)
    except Exception as err:
        line = error_line(err)
        if line is None:
            raise
        print(f"✘ {line}", file=sys.stderr)
        sys.exit(1)
