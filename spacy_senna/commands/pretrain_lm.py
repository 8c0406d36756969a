"""`python -m spacy_senna pretrain-lm TEXT [TEXT ...] OUTPUT_DIR`: the paper's ranking LM."""

from __future__ import annotations

import argparse
from pathlib import Path

from ..lm.pretrain import pretrain
from ..lm.settings import CURRICULUM_INITS, OPTIMIZERS, TOKENIZERS, PretrainConfig

DEFAULTS = PretrainConfig()


def _sizes(text: str) -> list[int]:
    try:
        return [int(part) for part in text.split(",") if part.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"expected comma-separated dictionary sizes, e.g. 5000,10000,30000, not {text!r}"
        ) from None


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
            "OUTPUT_DIR.checkpoints. Training stops at the first limit reached "
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
    add = parser.add_argument
    add(
        "--vocab-size",
        type=int,
        default=DEFAULTS.vocab_size,
        help="dictionary size, PADDING and UNKNOWN not included (default %(default)s)",
    )
    add(
        "--curriculum",
        type=_sizes,
        default=[],
        help="growing dictionary sizes ending at --vocab-size, e.g. "
        "5000,10000,30000,50000,100000: one stage per equal share of the budget",
    )
    add(
        "--curriculum-init",
        choices=CURRICULUM_INITS,
        default=DEFAULTS.curriculum_init,
        help="rows of the words a stage adds: their random initial rows, or the "
        "UNKNOWN row (default %(default)s)",
    )
    add(
        "--negatives",
        type=int,
        default=DEFAULTS.negatives,
        help="corrupted windows per window (default %(default)s)",
    )
    add(
        "--batch-size",
        type=int,
        default=DEFAULTS.batch_size,
        help="windows per update (default %(default)s)",
    )
    add(
        "--optimizer",
        choices=OPTIMIZERS,
        default=DEFAULTS.optimizer,
        help="sgd: paper's plain SGD, rates divided by fan-in (default %(default)s)",
    )
    add(
        "--learning-rate",
        type=float,
        default=DEFAULTS.learning_rate,
        help="per-window learning rate (default %(default)s)",
    )
    add(
        "--embed-init",
        type=float,
        default=DEFAULTS.embed_init,
        help="lookup tables start uniform in ±this (default %(default)s)",
    )
    add("--window", type=int, default=DEFAULTS.window, help="default %(default)s")
    add("--word-dim", type=int, default=DEFAULTS.word_dim, help="default %(default)s")
    add("--caps-dim", type=int, default=DEFAULTS.caps_dim, help="default %(default)s")
    add("--hidden", type=int, default=DEFAULTS.hidden, help="default %(default)s")
    add(
        "--validation-words",
        type=int,
        default=DEFAULTS.validation_words,
        help="hold out the first lines, up to this many words (default %(default)s)",
    )
    add(
        "--tokenizer",
        choices=TOKENIZERS,
        default=DEFAULTS.tokenizer,
        help="whitespace: pre-tokenised text; spacy: spaCy's English tokenizer, for raw "
        "text (the tokens the components see at run time) (default %(default)s)",
    )
    add(
        "--max-line-tokens",
        type=int,
        default=DEFAULTS.max_line_tokens,
        help="longer lines are split into padded segments (default %(default)s)",
    )
    add(
        "--epochs",
        type=float,
        default=DEFAULTS.epochs,
        help="passes over the training words; 0 = no limit (default %(default)s)",
    )
    add("--max-words", type=int, default=0, help="stop after this many windows")
    add(
        "--max-seconds",
        type=float,
        default=0.0,
        help="stop after this many seconds of training (corpus encoding not counted)",
    )
    add(
        "--checkpoint-every-seconds",
        type=float,
        default=DEFAULTS.checkpoint_every_seconds,
        help="default %(default)s; a checkpoint is always written at the end",
    )
    add(
        "--eval-every-words",
        type=int,
        default=DEFAULTS.eval_every_words,
        help="validation interval (default %(default)s)",
    )
    add(
        "--resume",
        action="store_true",
        help="continue from OUTPUT_DIR.checkpoints/checkpoint.pt (same settings)",
    )
    add("--seed", type=int, default=DEFAULTS.seed, help="default %(default)s")
    add(
        "--device",
        default="",
        help="torch device (default: cuda if available, else cpu)",
    )
    add(
        "--threads",
        type=int,
        default=0,
        help="torch CPU threads (default: torch's choice)",
    )
    add("--quiet", action="store_true", help="no progress output")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> None:
    """Run `pretrain-lm` from parsed arguments."""
    if len(args.paths) < 2:
        raise ValueError("pretrain-lm needs at least one TEXT_PATH and an OUTPUT_DIR.")
    *texts, output_dir = args.paths
    config = PretrainConfig(
        vocab_size=args.vocab_size,
        curriculum=args.curriculum,
        curriculum_init=args.curriculum_init,
        window=args.window,
        word_dim=args.word_dim,
        caps_dim=args.caps_dim,
        hidden=args.hidden,
        negatives=args.negatives,
        batch_size=args.batch_size,
        optimizer=args.optimizer,
        learning_rate=args.learning_rate,
        embed_init=args.embed_init,
        validation_words=args.validation_words,
        max_line_tokens=args.max_line_tokens,
        tokenizer=args.tokenizer,
        seed=args.seed,
        epochs=args.epochs,
        max_words=args.max_words,
        max_seconds=args.max_seconds,
        checkpoint_every_seconds=args.checkpoint_every_seconds,
        eval_every_words=args.eval_every_words,
        device=args.device,
        threads=args.threads,
        progress=not args.quiet,
    )
    pretrain(texts, output_dir, config, resume=args.resume)
