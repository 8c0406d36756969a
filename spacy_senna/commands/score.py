"""`score conll FILE`: a drop-in for conlleval.pl (CoNLL-2000 evaluation script, 2004-01-26).

Each line holds delimiter-separated columns whose last two are the gold and the guessed
tag; a blank line or a line whose first column is `-X-` is a sentence boundary (other
lines, `-DOCSTART-` ones included, are ordinary tokens). Prints exactly what conlleval
prints. Unlike Perl's chomp, a trailing carriage return is removed too.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Iterable, Iterator

from ..files import require_file
from ..scoring import conlleval
from .errors import CliError


def _input_lines(source: str) -> Iterator[tuple[int, str]]:
    if source == "-":
        stream: Iterable[bytes] = sys.stdin.buffer
        for lineno, data in enumerate(stream, 1):
            yield lineno, data.decode("utf8", errors="replace").rstrip("\r\n")
        return
    with require_file(source).open("rb") as stream:
        for lineno, data in enumerate(stream, 1):
            yield lineno, data.decode("utf8", errors="replace").rstrip("\r\n")


def delimiter_pattern(delimiter: str) -> re.Pattern:
    """The compiled `-d` regular expression; CliError if it is not a valid one."""
    try:
        return re.compile(delimiter)
    except re.error as err:
        raise CliError(f"-d {delimiter}", f"not a valid regular expression ({err})") from None


def _run(args: argparse.Namespace) -> None:
    name = "<stdin>" if args.file == "-" else args.file
    delimiter_pattern(args.delimiter)
    report = conlleval(_input_lines(args.file), args.delimiter, args.raw, args.o_tag, name)
    sys.stdout.write(report)


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    """Register the `score` subcommand (`score conll FILE`)."""
    parser = subparsers.add_parser(
        "score", help="score tagger output", description="Score tagger output."
    )
    formats = parser.add_subparsers(dest="format", required=True)
    conll = formats.add_parser(
        "conll", help="conlleval.pl-compatible chunk scoring", description=__doc__
    )
    conll.add_argument("file", help="conlleval input file, or - for stdin")
    conll.add_argument(
        "-d",
        dest="delimiter",
        default=" ",
        help="column delimiter, a regular expression (default: one space)",
    )
    conll.add_argument(
        "-r",
        dest="raw",
        action="store_true",
        help="raw tags without B-/I- prefixes: each is a one-token chunk",
    )
    conll.add_argument("-o", dest="o_tag", default="O", help="outside tag for -r (default: O)")
    conll.set_defaults(func=_run)
