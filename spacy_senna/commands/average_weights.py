"""`average-weights OUTPUT PIPELINE PIPELINE...`: checkpoint averaging of one pipeline's copies."""

import argparse
from pathlib import Path

from ..training.averaging import average_weights
from .errors import check_pipeline_folder


def _run(args: argparse.Namespace) -> None:
    for pipeline in args.pipelines:
        check_pipeline_folder(pipeline)
    averaged = average_weights(args.pipelines)
    args.output.parent.mkdir(parents=True, exist_ok=True)
    averaged.to_disk(args.output)
    print(f"✔ {args.output}: the mean weights of {len(args.pipelines)} pipelines")


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "average-weights", help="average the weights of trained copies of one pipeline"
    )
    parser.add_argument("output", type=Path, help="directory to write the averaged pipeline to")
    parser.add_argument("pipelines", type=Path, nargs="+", help="trained copies of one pipeline")
    parser.set_defaults(func=_run)
