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
from ..scoring import CONLLEVAL_BOUNDARY, ConllevalCounter, format_conlleval
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


def conlleval(
    lines: Iterable[tuple[int, str]],
    delimiter: str = " ",
    raw: bool = False,
    o_tag: str = "O",
    name: str = "-",
) -> str:
    """conlleval.pl's report for numbered input lines (`name` only labels errors)."""
    pattern = delimiter_pattern(delimiter)
    counter = ConllevalCounter()
    n_features: int | None = None
    for lineno, line in lines:
        features = pattern.split(line)
        while features and features[-1] == "":
            features.pop()  # Perl's split drops trailing empty fields
        if n_features is None or n_features < 0:
            n_features = len(features) - 1
        elif n_features != len(features) - 1 and features:
            raise ValueError(
                f"{name}:{lineno}: unexpected number of features: "
                f"{len(features)} ({n_features + 1})"
            )
        if not features or features[0] == CONLLEVAL_BOUNDARY:
            features = [CONLLEVAL_BOUNDARY, "O", "O"]
        if len(features) < 2:
            raise ValueError(f"{name}:{lineno}: unexpected number of features in line {line}")
        gold, guess = features[-2], features[-1]
        if raw:
            gold = "O" if gold in (o_tag, "O") else f"B-{gold}"
            guess = "O" if guess in (o_tag, "O") else f"B-{guess}"
        boundary = len(features) > 2 and features[0] == CONLLEVAL_BOUNDARY
        counter.add(gold, guess, boundary=boundary)
    result = counter.result()
    return format_conlleval(result, result["n_tokens"], result["acc"])


def _run(args: argparse.Namespace) -> None:
    name = "<stdin>" if args.file == "-" else args.file
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
