"""`score conll FILE`: a drop-in for conlleval.pl (CoNLL-2000 evaluation script, 2004-01-26);
`score conll05 GOLD PRED`: a drop-in for srl-eval.pl (CoNLL-2005 evaluation script).

conll: each line holds delimiter-separated columns whose last two are the gold and the guessed
tag; a blank line or a line whose first column is `-X-` is a sentence boundary (other
lines, `-DOCSTART-` ones included, are ordinary tokens). Prints exactly what conlleval
prints. Unlike Perl's chomp, a trailing carriage return is removed too.

conll05: two props files (a target column, then one Start-End column per predicate);
prints exactly what srl-eval.pl prints (see spacy_senna/scoring/srl_eval.py).
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Iterable, Iterator

from ..io.files import require_file
from ..scoring import conlleval, srl_eval
from ..scoring.parseval import parseval
from ..syntax.trees import read_trees
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


def _run_conll05(args: argparse.Namespace) -> None:
    def warn(message: str) -> None:
        print(message, file=sys.stderr)

    counter = srl_eval(
        require_file(args.gold), require_file(args.predicted), None if args.no_warnings else warn
    )
    sys.stdout.write(counter.latex() if args.latex else counter.report())
    if args.confusion:
        sys.stdout.write(counter.confusion_report())


def _add_conll05(formats: argparse._SubParsersAction) -> None:
    conll05 = formats.add_parser(
        "conll05",
        help="srl-eval.pl-compatible SRL argument scoring (CoNLL-2005 props files)",
        description="Score predicted CoNLL-2005 props against gold ones and print the report "
        "of the shared task's srl-eval.pl (same numbers, same text). A props file has a "
        "target column (the predicate's lemma, or -) and one Start-End column per predicate "
        "((A0*, *, *), (V*)); blank lines separate sentences; .gz files are read too.",
    )
    conll05.add_argument("gold", help="gold props file")
    conll05.add_argument("predicted", help="predicted props file")
    conll05.add_argument(
        "-C",
        dest="confusion",
        action="store_true",
        help="also print unlabelled scores and the confusion matrix of argument types",
    )
    conll05.add_argument(
        "-latex", "--latex", dest="latex", action="store_true", help="print a LaTeX table"
    )
    conll05.add_argument(
        "-noW",
        "--noW",
        dest="no_warnings",
        action="store_true",
        help="no warnings about predicates missing from either file",
    )
    conll05.set_defaults(func=_run_conll05)


def _run_parse(args: argparse.Namespace) -> None:
    gold = list(read_trees(require_file(args.gold)))
    predicted = list(read_trees(require_file(args.predicted)))
    if len(gold) != len(predicted):
        raise CliError(args.predicted, f"holds {len(predicted)} trees, the gold file {len(gold)}")
    sys.stdout.write(parseval(zip(gold, predicted)).report())


def _add_parse(formats: argparse._SubParsersAction) -> None:
    parse = formats.add_parser(
        "parse",
        help="EVALB-compatible labelled bracketing (COLLINS.prm) of parse trees",
        description="Score predicted constituency trees against gold ones as EVALB does "
        "with COLLINS.prm (see spacy_senna/scoring/parseval.py): one bracketed tree per "
        "line in each file, in the same order; .gz files are read too.",
    )
    parse.add_argument("gold", help="gold trees, one per line")
    parse.add_argument("predicted", help="predicted trees, one per line")
    parse.set_defaults(func=_run_parse)


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    """Register the `score` subcommand (`score conll FILE`, `score conll05 GOLD PRED`)."""
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
    _add_conll05(formats)
    _add_parse(formats)
