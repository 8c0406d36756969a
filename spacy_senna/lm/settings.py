"""The settings of a pretraining run, each declared once with its command-line help.

`pretrain-lm`'s options are generated from the fields of `PretrainConfig`, in this order:
option `--NAME-WITH-DASHES` (or the field's `flag`), default and type from the field's
default, `choices` and `help` from its metadata. Defaults were tuned on the Wikipedia
sample with one CPU thread (`sgd`, rate 0.02, 1024 windows of 8 negatives, lookups
initialised in ±0.1): per word it learns as fast as Adagrad and Adam and it runs fastest
(rates of 0.2 collapse: every HardTanh saturates).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

OPTIMIZERS = ("sgd", "adagrad", "adam")
TOKENIZERS = ("whitespace", "spacy")
CURRICULUM_INITS = ("random", "unknown")
#: settings that may change when resuming (limits and runtime only)
RUNTIME_SETTINGS = (
    "epochs",
    "max_words",
    "max_seconds",
    "checkpoint_every_seconds",
    "eval_every_words",
    "device",
    "threads",
    "workers",
    "progress",
)


def setting(default: Any, help: str, *, choices: Sequence[str] = (), flag: str = "") -> Any:
    """A `PretrainConfig` field with its command-line help.

    `flag` replaces the option name derived from the field's name; a boolean setting
    becomes a switch that sets the opposite of its default.
    """
    metadata = {"help": help, "choices": tuple(choices), "flag": flag}
    if isinstance(default, list):
        if default:
            raise ValueError("A list setting's default must be empty.")
        return field(default_factory=list, metadata=metadata)
    return field(default=default, metadata=metadata)


@dataclass
class PretrainConfig:
    """All settings of a pretraining run (see `python -m spacy_senna pretrain-lm -h`)."""

    vocab_size: int = setting(
        100_000, "dictionary size, PADDING and UNKNOWN not included (default %(default)s)"
    )
    curriculum: list[int] = setting(
        [],
        "growing dictionary sizes ending at --vocab-size, e.g. "
        "5000,10000,30000,50000,100000: one stage per equal share of the budget",
    )
    curriculum_init: str = setting(
        "random",
        "rows of the words a stage adds: their random initial rows, or the "
        "UNKNOWN row (default %(default)s)",
        choices=CURRICULUM_INITS,
    )
    negatives: int = setting(8, "corrupted windows per window (default %(default)s)")
    batch_size: int = setting(1024, "windows per update (default %(default)s)")
    optimizer: str = setting(
        "sgd",
        "sgd: paper's plain SGD, rates divided by fan-in (default %(default)s)",
        choices=OPTIMIZERS,
    )
    learning_rate: float = setting(0.02, "per-window learning rate (default %(default)s)")
    embed_init: float = setting(0.1, "lookup tables start uniform in ±this (default %(default)s)")
    window: int = setting(11, "default %(default)s")
    word_dim: int = setting(50, "default %(default)s")
    caps_dim: int = setting(5, "default %(default)s")
    hidden: int = setting(100, "default %(default)s")
    validation_words: int = setting(
        100_000, "hold out the first lines, up to this many words (default %(default)s)"
    )
    tokenizer: str = setting(
        "whitespace",
        "whitespace: pre-tokenised text; spacy: spaCy's English tokenizer, for raw "
        "text (the tokens the components see at run time) (default %(default)s)",
        choices=TOKENIZERS,
    )
    lang: str = setting(
        "en",
        "language code of the vectors pipeline written (spaCy loads vectors only into a "
        "pipeline of their language) and of --tokenizer spacy (default %(default)s)",
    )
    max_line_tokens: int = setting(
        1000, "longer lines are split into padded segments (default %(default)s)"
    )
    epochs: float = setting(
        1.0, "passes over the training words; 0 = no limit (default %(default)s)"
    )
    max_words: int = setting(0, "stop after this many windows")
    max_seconds: float = setting(
        0.0, "stop after this many seconds of training (corpus encoding not counted)"
    )
    checkpoint_every_seconds: float = setting(
        600.0, "default %(default)s; a checkpoint is always written at the end"
    )
    eval_every_words: int = setting(1_000_000, "validation interval (default %(default)s)")
    seed: int = setting(0, "default %(default)s")
    device: str = setting("", "torch device (default: cuda if available and workers = 1, else cpu)")
    threads: int = setting(
        0, "torch CPU threads per process (default: torch's choice; with --workers: cores/workers)"
    )
    workers: int = setting(
        1,
        "training processes on the CPU updating one shared model without locks (Hogwild); "
        "more than 1 needs --optimizer sgd and gives results that vary from run to run "
        "(default %(default)s: one process, reproducible)",
    )
    progress: bool = setting(True, "no progress output", flag="--quiet")

    def validate(self) -> None:
        """Raise ValueError on settings that cannot work."""
        positive = ("vocab_size", "window", "word_dim", "caps_dim", "hidden")
        for name in positive + ("negatives", "batch_size", "max_line_tokens", "workers"):
            if getattr(self, name) < 1:
                raise ValueError(f"{name} must be at least 1, not {getattr(self, name)}.")
        if self.window % 2 == 0:
            raise ValueError(f"The window must be odd, not {self.window}.")
        if self.curriculum_init not in CURRICULUM_INITS:
            raise ValueError(
                f"Unknown curriculum_init '{self.curriculum_init}': use one of "
                f"{', '.join(CURRICULUM_INITS)}."
            )
        if self.tokenizer not in TOKENIZERS:
            raise ValueError(
                f"Unknown tokenizer '{self.tokenizer}': use one of {', '.join(TOKENIZERS)}."
            )
        check_lang(self.lang)
        if self.optimizer not in OPTIMIZERS:
            raise ValueError(
                f"Unknown optimizer '{self.optimizer}': use one of {', '.join(OPTIMIZERS)}."
            )
        if self.workers > 1 and self.optimizer != "sgd":
            raise ValueError(
                f"{self.workers} workers need the sgd optimizer, not {self.optimizer}: "
                "the workers share the model but not an optimiser's state."
            )
        if not self.learning_rate > 0 or not self.embed_init > 0:
            raise ValueError("learning_rate and embed_init must be positive.")
        for name in ("epochs", "max_words", "max_seconds", "validation_words", "threads"):
            if getattr(self, name) < 0:
                raise ValueError(f"{name} must not be negative.")
        if not (self.epochs or self.max_words or self.max_seconds):
            raise ValueError("Set at least one limit: --epochs, --max-words or --max-seconds.")
        if self.curriculum:
            stages = self.curriculum
            if sorted(set(stages)) != list(stages) or stages[0] < 1:
                raise ValueError(f"The curriculum must be increasing positive sizes, not {stages}.")
            if stages[-1] != self.vocab_size:
                raise ValueError(
                    f"The curriculum must end at the dictionary size {self.vocab_size}, "
                    f"not {stages[-1]} (set --vocab-size or the last stage)."
                )

    def stages(self) -> list[int]:
        """Dictionary sizes of the curriculum stages (one stage without a curriculum)."""
        return list(self.curriculum) or [self.vocab_size]

    def settings(self) -> dict:
        """The settings a checkpoint must share with a run that resumes it."""
        return {k: v for k, v in asdict(self).items() if k not in RUNTIME_SETTINGS}


def check_lang(lang: str) -> None:
    """ValueError unless spaCy has a language class for `lang`."""
    from spacy.util import get_lang_class

    try:
        get_lang_class(lang)
    except ImportError:
        raise ValueError(f"Unknown language '{lang}': use a code spaCy knows (en, pt, fr, ...).")
