"""`python -m spacy_senna COMMAND ...`: converters, scoring, LM pretraining, training recipes
and annotation."""

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
    "names_from_text",
    "score",
    "pretrain_lm",
    "pretrain_bilstm",
    "nearest_neighbours",
    "import_vectors",
    "train_cycles",
    "resume_config",
    "average_weights",
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
    argv = sys.argv[1:] if argv is None else list(argv)
    after_dashes = argv[argv.index("--") + 1 :] if "--" in argv else []
    parser = build_parser()
    args = parser.parse_args(argv[: argv.index("--")] if "--" in argv else argv)
    if after_dashes and not getattr(args, "takes_after_dashes", False):
        parser.error(f"{args.command} takes no arguments after --")
    args.after_dashes = after_dashes
    try:
        args.func(args)
    except Exception as err:
        line = error_line(err)
        if line is None:
            raise
        print(f"✘ {line}", file=sys.stderr)
        sys.exit(1)
