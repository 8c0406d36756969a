"""`python -m spacy_senna pretrain-lm TEXT [TEXT ...] OUTPUT_DIR`: the paper's ranking LM.

Every setting's option is generated from its declaration in `PretrainConfig`.
"""

from __future__ import annotations

import argparse
from dataclasses import MISSING, Field, fields
from pathlib import Path

from ..lm.pretrain import pretrain
from ..lm.settings import PretrainConfig
from .signals import signals_stop_cleanly


def _sizes(text: str) -> list[int]:
    try:
        return [int(part) for part in text.split(",") if part.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"expected comma-separated dictionary sizes, e.g. 5000,10000,30000, not {text!r}"
        ) from None


def _add_setting(parser: argparse.ArgumentParser, setting: Field) -> None:
    """The option of one `PretrainConfig` field: `--name-with-dashes` unless it names one."""
    flag = setting.metadata["flag"] or "--" + setting.name.replace("_", "-")
    default = setting.default_factory() if setting.default is MISSING else setting.default
    options: dict = {"dest": setting.name, "help": setting.metadata["help"]}
    if isinstance(default, bool):
        options["action"] = "store_false" if default else "store_true"
    else:
        options["default"] = default
        if setting.metadata["choices"]:
            options["choices"] = setting.metadata["choices"]
        elif isinstance(default, list):
            options["type"] = _sizes
        elif not isinstance(default, str):
            options["type"] = type(default)
    parser.add_argument(flag, **options)


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    """Register the `pretrain-lm` subcommand."""
    parser = subparsers.add_parser(
        "pretrain-lm",
        help="pretrain word embeddings with the paper's window ranking LM (§4)",
        description=(
            "Train SENNA's language model (window 11, word 50 + caps 5, hidden 100, "
            "pairwise hinge ranking loss against corrupted centre words) on raw text "
            "and write the word embeddings as a spaCy vectors pipeline to OUTPUT_DIR, "
            "usable as [initialize] vectors. Checkpoints and the encoded corpus go to "
            "OUTPUT_DIR.checkpoints (the encoded corpus is a cache: a damaged one is "
            "encoded again, with a warning). Training stops at the first limit reached "
            "(--epochs, --max-words, --max-seconds; all totals over resumed runs)."
        ),
    )
    parser.add_argument(
        "paths",
        nargs="+",
        type=Path,
        metavar="TEXT_PATH ... OUTPUT_DIR",
        help="UTF-8 text files (.gz accepted), one sentence or paragraph "
        "per line, whitespace tokens; then the output directory",
    )
    for setting in fields(PretrainConfig):
        if setting.name == "seed":  # --resume has always been listed here
            parser.add_argument(
                "--resume",
                action="store_true",
                help="continue from OUTPUT_DIR.checkpoints/checkpoint.pt (same settings)",
            )
        _add_setting(parser, setting)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> None:
    """Run `pretrain-lm` from parsed arguments."""
    if len(args.paths) < 2:
        raise ValueError("pretrain-lm needs at least one TEXT_PATH and an OUTPUT_DIR.")
    *texts, output_dir = args.paths
    config = PretrainConfig(**{s.name: getattr(args, s.name) for s in fields(PretrainConfig)})
    with signals_stop_cleanly():
        pretrain(texts, output_dir, config, resume=args.resume)
