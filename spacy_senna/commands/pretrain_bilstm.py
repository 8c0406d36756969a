"""`pretrain-bilstm CONFIG TEXT OUTPUT --steps N -- OVERRIDES`: a component's sentence
BiLSTM pretrained as a bidirectional language model (spacy_senna/lm/bilstm_pretrain.py)."""

import argparse
import sys
from pathlib import Path

from spacy.cli._util import parse_config_overrides

from ..lm.bilstm_pretrain import BiLSTMPretraining, pretrain_bilstm, sourcing_config
from .errors import CliError
from .signals import signals_stop_cleanly

#: the exit status of a run stopped by Ctrl-C, SIGINT or SIGTERM (128 + SIGINT, as shells)
INTERRUPTED = 130


def _run(args: argparse.Namespace) -> None:
    if not args.config.is_file():
        raise CliError(args.config, "does not exist: pass a training config")
    for name in ("steps", "seconds", "batch_size", "negatives", "rate"):
        value = getattr(args, name)
        if value is not None and value <= 0:
            raise ValueError(f"--{name.replace('_', '-')} must be positive")
    if not 0 <= args.dropout < 1:
        raise ValueError("--dropout must be in [0, 1)")
    settings = BiLSTMPretraining(
        component=args.component,
        steps=args.steps,
        seconds=args.seconds,
        batch_size=args.batch_size,
        negatives=args.negatives,
        learn_rate=args.rate,
        dropout=args.dropout,
        seed=args.seed,
    )
    overrides = parse_config_overrides(args.after_dashes)
    try:
        with signals_stop_cleanly():
            nlp = pretrain_bilstm(args.config, args.text, settings, overrides)
    except KeyboardInterrupt:  # while reading the text or initialising, before any step
        print("✘ interrupted before the pretraining began: nothing written", file=sys.stderr)
        sys.exit(INTERRUPTED)
    args.output.parent.mkdir(parents=True, exist_ok=True)
    nlp.to_disk(args.output)
    print(f"✔ {args.output}: {args.component} with its BiLSTM pretrained on {args.text}")
    if args.train_config is not None:
        args.train_config.parent.mkdir(parents=True, exist_ok=True)
        config = sourcing_config(args.config, overrides, args.component, args.output)
        config.to_disk(args.train_config)
        print(f"✔ {args.train_config}: {args.config} training {args.component} from it")
    done = nlp.meta["bilstm_pretraining"]
    if done["stopped"] == "interrupted":
        # written, so that the work is not lost, but a workflow must not go on from it
        print(
            f"✘ interrupted after {done['steps']} steps: {args.output} holds the BiLSTM "
            "pretrained so far (its meta.json says how far); run again for the full pretraining",
            file=sys.stderr,
        )
        sys.exit(INTERRUPTED)


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "pretrain-bilstm",
        help="pretrain a component's sentence BiLSTM as a bidirectional LM on raw text",
    )
    parser.add_argument("config", type=Path, help="the component's training config")
    parser.add_argument("text", type=Path, help="UTF-8 text (.gz or not), tokens split by spaces")
    parser.add_argument("output", type=Path, help="folder for the pretrained pipeline")
    parser.add_argument("--component", default="senna_ner", help="the component to pretrain")
    parser.add_argument("--steps", type=int, help="stop after this many batches")
    parser.add_argument("--seconds", type=float, help="stop after this many seconds")
    parser.add_argument("--batch-size", type=int, default=64, help="text chunks a batch")
    parser.add_argument("--negatives", type=int, default=2048, help="words drawn a batch")
    parser.add_argument("--rate", type=float, default=0.002, help="Adam's learning rate")
    parser.add_argument("--dropout", type=float, default=0.1)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--train-config", type=Path, help="also write CONFIG with the component sourced from OUTPUT"
    )
    # the arguments after `--` override CONFIG's settings, as for `spacy train` (cli.main)
    parser.set_defaults(func=_run, takes_after_dashes=True)
