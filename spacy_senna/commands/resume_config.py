"""`resume-config PIPELINE OUTPUT.cfg --steps N --rate R`: train a trained pipeline further."""

import argparse
from pathlib import Path

from ..training.resume import resume_config
from .errors import check_pipeline_folder


def _run(args: argparse.Namespace) -> None:
    check_pipeline_folder(args.pipeline)
    if args.steps < 1 or args.rate <= 0:
        raise ValueError("--steps and --rate must be positive")
    settings = dict(item.split("=", 1) for item in args.setting if "=" in item)
    if len(settings) != len(args.setting):
        raise ValueError("--setting takes NAME.KEY=VALUE, e.g. senna_parser.explore=0.5")
    args.output.parent.mkdir(parents=True, exist_ok=True)
    config = resume_config(
        args.pipeline, args.steps, args.rate, args.eval_frequency, settings, args.output
    )
    config.to_disk(args.output)
    print(f"✔ {args.output}: {args.steps} steps from {args.rate} on {args.pipeline}")


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "resume-config", help="write a config that trains a trained pipeline further"
    )
    parser.add_argument("pipeline", type=Path, help="a trained pipeline (model-last)")
    parser.add_argument("output", type=Path, help="the config to write")
    parser.add_argument("--steps", type=int, required=True)
    parser.add_argument("--rate", type=float, required=True, help="the first learning rate")
    parser.add_argument("--eval-frequency", type=int, default=500)
    parser.add_argument(
        "--setting",
        action="append",
        default=[],
        metavar="NAME.KEY=VALUE",
        help="a component setting for the resumed training, e.g. senna_parser.explore=0.5",
    )
    parser.set_defaults(func=_run)
