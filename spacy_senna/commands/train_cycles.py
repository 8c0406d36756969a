"""`train-cycles CONFIG OUTPUT --first N --cycle STEPS:RATE... -- OVERRIDES`: a training recipe."""

import argparse
import shlex
from pathlib import Path

from ..training.cycles import average_command, parse_cycle, run_stages, stage_commands
from .errors import CliError


def _run(args: argparse.Namespace) -> None:
    if not args.config.exists():
        raise CliError(args.config, "does not exist")
    if args.first < 2:
        raise ValueError("--first must be 2 steps or more")
    cycles = [parse_cycle(text) for text in args.cycle]
    stages = stage_commands(args.config, args.output, args.first, cycles, args.after_dashes)
    if args.average:
        try:
            averaged = [int(n) for n in args.average.split(",")]
        except ValueError:
            raise ValueError(f"--average {args.average}: write stage numbers, e.g. 11,12") from None
        stages.append([average_command(args.output, averaged, len(cycles))])
    if args.dry_run:
        for commands in stages:
            print("\n".join(shlex.join(command) for command in commands))
        return
    run_stages(stages, args.output, len(cycles))


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "train-cycles", help="train a config, then resume it for learning-rate cycles"
    )
    parser.add_argument("config", type=Path, help="the config of the first stage")
    parser.add_argument("output", type=Path, help="folder for the stages and recipe.json")
    parser.add_argument("--first", type=int, required=True, help="steps of the first stage")
    parser.add_argument("--cycle", action="append", default=[], help="STEPS:RATE[:OPTION...]")
    parser.add_argument("--average", help="stages whose model-best to average, e.g. 11,12")
    parser.add_argument("--dry-run", action="store_true", help="print the commands, run none")
    # the arguments after `--` are `spacy train` overrides of the stages (cli.main)
    parser.set_defaults(func=_run, takes_after_dashes=True)
