"""The settings of a pretraining run.

Defaults were tuned on the Wikipedia sample with one CPU thread (`sgd`, rate 0.02, 1024
windows of 8 negatives, lookups initialised in ±0.1): per word it learns as fast as
Adagrad and Adam and it runs fastest (rates of 0.2 collapse: every HardTanh saturates).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field

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
    "progress",
)


@dataclass
class PretrainConfig:
    """All settings of a pretraining run (see `python -m spacy_senna pretrain-lm -h`)."""

    vocab_size: int = 100_000
    curriculum: list[int] = field(default_factory=list)
    curriculum_init: str = "random"
    window: int = 11
    word_dim: int = 50
    caps_dim: int = 5
    hidden: int = 100
    negatives: int = 8
    batch_size: int = 1024
    optimizer: str = "sgd"
    learning_rate: float = 0.02
    embed_init: float = 0.1
    validation_words: int = 100_000
    max_line_tokens: int = 1000
    tokenizer: str = "whitespace"
    seed: int = 0
    epochs: float = 1.0
    max_words: int = 0
    max_seconds: float = 0.0
    checkpoint_every_seconds: float = 600.0
    eval_every_words: int = 1_000_000
    device: str = ""
    threads: int = 0
    progress: bool = True

    def validate(self) -> None:
        """Raise ValueError on settings that cannot work."""
        positive = ("vocab_size", "window", "word_dim", "caps_dim", "hidden")
        for name in positive + ("negatives", "batch_size", "max_line_tokens"):
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
        if self.optimizer not in OPTIMIZERS:
            raise ValueError(
                f"Unknown optimizer '{self.optimizer}': use one of {', '.join(OPTIMIZERS)}."
            )
        if not self.learning_rate > 0 or not self.embed_init > 0:
            raise ValueError("learning_rate and embed_init must be positive.")
        for name in ("epochs", "max_words", "max_seconds", "validation_words"):
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
