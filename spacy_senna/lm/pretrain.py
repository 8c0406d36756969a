"""Training loop of the ranking LM (paper §4.2–4.3): batches, curriculum, checkpoints.

Choices the paper leaves open (digest §10, "Unspecified"), made here:

* **Negatives:** `negatives` corrupted windows per corpus window, centre words drawn
  uniformly over the current dictionary's real words (PADDING/UNKNOWN excluded),
  matching the uniform sum over D in eq. 17. A negative equal to the true word is
  masked out (its hinge term is a constant 1 with zero gradient anyway).
* **Caps of the corrupted centre:** the original caps value is kept, so the network
  must judge the word itself, not its capitalisation.
* **Windows** never cross line (sentence/paragraph) boundaries: PADDING beyond them.
* **Batching:** a batch of windows is one SGD step on the *summed* hinge loss, so the
  learning rate keeps the paper's per-example meaning. With `sgd` each layer's rate is
  divided by its fan-in (paper Remark 7: lookup tables 1, first linear layer 605,
  output layer 100); `adagrad` and `adam` use one rate for all parameters. Word
  embeddings have sparse gradients with every optimiser. Defaults (tuned on the
  Wikipedia sample, one CPU thread): `sgd`, rate 0.02, 1024 windows of 8 negatives,
  lookups initialised in ±0.1; per word it learns as fast as Adagrad and Adam and it
  runs fastest (rates of 0.2 collapse: every HardTanh saturates).
* **Curriculum:** the training budget (whichever of epochs, words and seconds runs
  out first) is split into equal shares, one per dictionary size. A stage maps words
  outside its dictionary to UNKNOWN. When the dictionary grows, the known words keep
  their trained rows and each new word keeps its random initial row (untouched so
  far). `curriculum_init="unknown"` instead starts new words from the UNKNOWN row
  (plus a tenth of their random row). UNKNOWN is never a negative, so it scores high
  everywhere; the 40-minute Wikipedia run with "unknown" collapsed transiently after
  two of its four switches (benchmarks/lm_pretraining.md). A short A/B showed no
  collapse with either and a slightly lower loss with "random", the default.
* **Validation:** the ranking loss of eq. 17 (mean hinge per pair) on windows of the
  held-out first lines, with negatives fixed by the seed, plus the fraction of pairs
  ranked wrongly (f(x^w) ≥ f(x)).
"""

from __future__ import annotations

import math
import sys
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path

import numpy
import torch
from tqdm import tqdm

from ..files import atomic_output
from ..lexicon import SPECIALS, UNKNOWN
from .corpus import (
    N_CAPS,
    CorpusSettings,
    EncodedCorpus,
    WindowSampler,
    fingerprint,
    load_or_encode,
    warn,
)
from .export import PAPER_QUERIES, format_neighbours, nearest_neighbours, write_vectors
from .ranking_model import RankingLM, ranking_loss

CHECKPOINT_VERSION = 1
OPTIMIZERS = ("sgd", "adagrad", "adam")
TOKENIZERS = ("whitespace", "spacy")
CURRICULUM_INITS = ("random", "unknown")
# values implied by checkpoints written before a setting existed
_MISSING_SETTINGS = {"curriculum_init": "unknown"}
# settings that may change when resuming (limits and runtime only)
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


def work_dir(output_dir: Path) -> Path:
    """Where checkpoints and the encoded corpus live: OUTPUT_DIR.checkpoints."""
    output_dir = Path(output_dir)
    return output_dir.with_name(output_dir.name + ".checkpoints")


def _config_differences(saved: dict, current: dict) -> list[str]:
    keys = sorted(set(saved) | set(current))
    return [
        f"{k}: checkpoint {saved.get(k)!r}, now {current.get(k)!r}"
        for k in keys
        if saved.get(k) != current.get(k)
    ]


def _make_optimizers(model: RankingLM, config: PretrainConfig) -> list[torch.optim.Optimizer]:
    lr = config.learning_rate
    if config.optimizer == "sgd":
        groups = [
            {"params": [model.word.weight, model.caps.weight], "lr": lr},
            {
                "params": list(model.hidden.parameters()),
                "lr": lr / model.hidden.in_features,
            },
            {
                "params": list(model.output.parameters()),
                "lr": lr / model.output.in_features,
            },
        ]
        return [torch.optim.SGD(groups, lr=lr)]
    if config.optimizer == "adagrad":
        return [torch.optim.Adagrad(model.parameters(), lr=lr)]
    dense = [p for name, p in model.named_parameters() if name != "word.weight"]
    return [
        torch.optim.SparseAdam([model.word.weight], lr=lr),
        torch.optim.Adam(dense, lr=lr),
    ]


@torch.no_grad()
def evaluate(
    model: RankingLM,
    corpus: EncodedCorpus,
    n_rows: int,
    negatives: int,
    seed: int,
    batch_size: int = 4096,
) -> tuple[float, float]:
    """Validation (mean hinge loss per pair, fraction of pairs ranked wrongly)."""
    positions = corpus.valid_positions()
    if len(positions) == 0:
        return math.nan, math.nan
    device = model.hidden.weight.device
    generator = torch.Generator(device=device).manual_seed(seed + 1)
    total = errors = pairs = 0.0
    was_training = model.training
    model.eval()
    for start in range(0, len(positions), batch_size):
        words, caps = corpus.windows(positions[start : start + batch_size], n_rows, valid=True)
        words_t = torch.from_numpy(words).to(device)
        caps_t = torch.from_numpy(caps).to(device)
        candidates = _candidates(words_t, model.centre, n_rows, negatives, generator)
        scores = model.score_candidates(words_t, caps_t, candidates)
        loss, n_pairs = ranking_loss(scores, candidates)
        valid = candidates[:, 1:] != candidates[:, :1]
        wrong = (scores[:, 1:] >= scores[:, :1]) & valid
        total += float(loss)
        pairs += float(n_pairs)
        errors += float(wrong.sum())
    model.train(was_training)
    return total / max(pairs, 1.0), errors / max(pairs, 1.0)


def _candidates(
    words: torch.Tensor,
    centre: int,
    n_rows: int,
    negatives: int,
    generator: torch.Generator,
) -> torch.Tensor:
    """(B, 1 + K): the true centre word, then K uniform negatives among real words."""
    low = len(SPECIALS)
    high = max(n_rows, low + 1)
    noise = torch.randint(
        low, high, (words.shape[0], negatives), generator=generator, device=words.device
    )
    return torch.cat([words[:, centre : centre + 1], noise], dim=1)


class _Progress:
    """tqdm on a terminal, otherwise a plain status line every `every` seconds."""

    def __init__(self, enabled: bool, total: int | None, initial: int, every: float = 30.0):
        self.tty = enabled and sys.stderr.isatty()
        self.enabled = enabled
        self.every = every
        self.last = time.perf_counter()
        self.bar = (
            tqdm(
                total=total,
                initial=initial,
                unit="w",
                unit_scale=True,
                dynamic_ncols=True,
            )
            if self.tty
            else None
        )

    def update(self, n: int, status: Callable[[], str]) -> None:
        if self.bar is not None:
            self.bar.update(n)
            now = time.perf_counter()
            if now - self.last > 1.0:
                self.bar.set_postfix_str(status(), refresh=False)
                self.last = now
        elif self.enabled and time.perf_counter() - self.last > self.every:
            self.last = time.perf_counter()
            self.write(status())

    def write(self, message: str) -> None:
        if self.bar is not None:
            self.bar.write(message, file=sys.stderr)
        elif self.enabled:
            print(message, file=sys.stderr, flush=True)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()


def _fmt_words(n: float) -> str:
    for unit, size in (("G", 1e9), ("M", 1e6), ("k", 1e3)):
        if n >= size:
            return f"{n / size:.2f}{unit}"
    return str(int(n))


def _load_checkpoint(path: Path, config: PretrainConfig, inputs: list[dict]) -> dict:
    """A checkpoint to resume from, or ValueError naming the settings that differ."""
    if not path.exists():
        raise ValueError(f"Cannot resume: no checkpoint at {path}.")
    checkpoint = torch.load(path, map_location="cpu", weights_only=True)
    if checkpoint.get("version") != CHECKPOINT_VERSION:
        raise ValueError(f"Cannot resume from {path}: unknown checkpoint version.")
    saved = {**_MISSING_SETTINGS, **checkpoint["settings"]}
    diffs = _config_differences(
        {**saved, "inputs": [i["path"] for i in checkpoint["inputs"]]},
        {**config.settings(), "inputs": [i["path"] for i in inputs]},
    )
    if checkpoint["inputs"] != inputs and not diffs:
        diffs = ["inputs: the input files changed since the checkpoint (size or time)"]
    if diffs:
        raise ValueError(
            f"Cannot resume from {path}: it was trained with different settings ("
            + "; ".join(diffs)
            + "). Use the same settings, or another OUTPUT_DIR to start afresh."
        )
    return checkpoint


class _Trainer:
    """Model, optimisers, sampler and progress of one run; resumable through `state`."""

    def __init__(
        self,
        corpus: EncodedCorpus,
        config: PretrainConfig,
        device: torch.device,
        checkpoint: dict | None,
    ) -> None:
        self.corpus = corpus
        self.config = config
        self.device = device
        available = len(corpus.vocab)
        self.stages = sorted({min(size, available) for size in config.stages()})
        self.model = RankingLM(
            corpus.n_rows,
            N_CAPS,
            word_dim=config.word_dim,
            caps_dim=config.caps_dim,
            window=config.window,
            hidden=config.hidden,
            embed_init=config.embed_init,
        ).to(device)
        self.optimizers = _make_optimizers(self.model, config)
        self.sampler = WindowSampler(corpus, config.batch_size, config.seed)
        self.generator = torch.Generator(device=device).manual_seed(config.seed)
        self.state: dict = {
            "words_seen": 0,
            "seconds": 0.0,
            "train_seconds": 0.0,
            "stage": 0,
            "curve": [],
            "stop_reason": "",
        }
        if checkpoint is not None:
            self.model.load_state_dict(checkpoint["model"])
            for opt, opt_state in zip(self.optimizers, checkpoint["optimizers"]):
                opt.load_state_dict(opt_state)
            self.sampler.load_state(checkpoint["sampler"])
            self.generator.set_state(checkpoint["generator"])
            self.state.update(checkpoint["state"])
        self.loss_sum = torch.zeros((), device=device)
        self.pair_sum = torch.zeros((), device=device)
        self.bar: _Progress | None = None

    @property
    def n_rows(self) -> int:
        """Word-table rows in use: PADDING, UNKNOWN and the current stage's words."""
        return self.stages[self.state["stage"]] + len(SPECIALS)

    @property
    def epochs_done(self) -> float:
        sampler = self.sampler
        return sampler.epoch + sampler.consumed_in_epoch / self.corpus.n_train_tokens

    @property
    def words_per_second(self) -> float:
        return self.state["words_seen"] / max(self.state["train_seconds"], 1e-9)

    def progress_fraction(self) -> float:
        """How much of the budget is spent: the largest of the limits' fractions."""
        config = self.config
        fractions = []
        if config.epochs:
            fractions.append(self.epochs_done / config.epochs)
        if config.max_words:
            fractions.append(self.state["words_seen"] / config.max_words)
        if config.max_seconds:
            fractions.append(self.state["seconds"] / config.max_seconds)
        return max(fractions)

    def status(self) -> str:
        loss = float(self.loss_sum / self.pair_sum.clamp(min=1))
        return f"loss {loss:.3f}, {self.words_per_second:,.0f} w/s"

    def validate(self) -> None:
        """Append a validation point (with the mean training loss since the last)."""
        pairs = float(self.pair_sum)
        train_loss = float(self.loss_sum) / pairs if pairs else math.nan
        self.loss_sum.zero_()
        self.pair_sum.zero_()
        val_loss, val_error = evaluate(
            self.model,
            self.corpus,
            self.n_rows,
            self.config.negatives,
            self.config.seed,
        )

        def rounded(value: float) -> float | None:
            return None if math.isnan(value) else round(value, 5)

        point = {
            "words": self.state["words_seen"],
            "epochs": round(self.epochs_done, 4),
            "seconds": round(self.state["seconds"], 1),
            "dictionary": self.stages[self.state["stage"]],
            "train_loss": rounded(train_loss),
            "valid_loss": rounded(val_loss),
            "valid_rank_error": rounded(val_error),
        }
        self.state["curve"].append(point)
        if self.bar is not None:
            self.bar.write(
                f"words {_fmt_words(point['words'])} | epoch {point['epochs']:.3f} | "
                f"dict {point['dictionary']} | train {train_loss:.4f} | "
                f"valid {val_loss:.4f} (wrong {val_error:.3f}) | "
                f"{self.words_per_second:,.0f} w/s | {self.state['seconds']:.0f}s"
            )

    def grow_dictionary(self, stage: int) -> None:
        """Move to a larger curriculum stage (new rows: see `curriculum_init`)."""
        old_rows = self.n_rows
        self.state["stage"] = stage
        if self.config.curriculum_init == "unknown":
            with torch.no_grad():
                weight = self.model.word.weight
                new = weight[old_rows : self.n_rows]
                weight[old_rows : self.n_rows] = weight[UNKNOWN] + 0.1 * new
        if self.bar is not None:
            self.bar.write(f"Curriculum: dictionary grows to {self.stages[stage]:,} words.")

    def step(self) -> int:
        """One update on a batch of windows; returns the number of windows."""
        positions = self.sampler.next_batch()
        words, caps = self.corpus.windows(positions, self.n_rows)
        words_t = torch.from_numpy(words).to(self.device)
        caps_t = torch.from_numpy(caps).to(self.device)
        candidates = _candidates(
            words_t,
            self.model.centre,
            self.n_rows,
            self.config.negatives,
            self.generator,
        )
        scores = self.model.score_candidates(words_t, caps_t, candidates)
        loss, n_pairs = ranking_loss(scores, candidates)
        for opt in self.optimizers:
            opt.zero_grad()
        loss.backward()
        for opt in self.optimizers:
            opt.step()
        self.loss_sum += loss.detach()
        self.pair_sum += n_pairs
        return len(positions)

    def save(self, path: Path, inputs: list[dict]) -> None:
        """Write a checkpoint atomically."""
        payload = {
            "version": CHECKPOINT_VERSION,
            "settings": self.config.settings(),
            "inputs": inputs,
            "model": {k: v.cpu() for k, v in self.model.state_dict().items()},
            "optimizers": [opt.state_dict() for opt in self.optimizers],
            "sampler": self.sampler.state(),
            "generator": self.generator.get_state(),
            "state": self.state,
        }
        with atomic_output(path) as tmp:
            torch.save(payload, tmp)

    def train(self, bar: _Progress, save: Callable[[], None]) -> None:
        """Run until a limit is reached (or Ctrl-C), validating and checkpointing."""
        config, state = self.config, self.state
        self.bar = bar
        self.model.train()
        n_stages = len(self.stages)
        if not state["curve"]:
            self.validate()
        next_eval = state["words_seen"] + config.eval_every_words
        last_save = loop_start = time.perf_counter()
        start_seconds = state["seconds"]
        try:
            while True:
                fraction = self.progress_fraction()
                if fraction >= 1.0:
                    state["stop_reason"] = "limit reached"
                    break
                stage = min(int(fraction * n_stages), n_stages - 1)
                if stage > state["stage"]:
                    self.validate()
                    self.grow_dictionary(stage)
                step_start = time.perf_counter()
                n = self.step()
                now = time.perf_counter()
                state["train_seconds"] += now - step_start
                state["words_seen"] += n
                state["seconds"] = start_seconds + now - loop_start
                bar.update(n, self.status)
                if state["words_seen"] >= next_eval:
                    self.validate()
                    next_eval = state["words_seen"] + config.eval_every_words
                every = config.checkpoint_every_seconds
                if every and time.perf_counter() - last_save >= every:
                    save()
                    last_save = time.perf_counter()
                state["seconds"] = start_seconds + time.perf_counter() - loop_start
        except KeyboardInterrupt:
            state["stop_reason"] = "interrupted"
            bar.write("Interrupted: writing the checkpoint and the vectors.")
        if state["curve"][-1]["words"] != state["words_seen"]:
            self.validate()
        save()

    def vectors(self) -> tuple[list[str], numpy.ndarray]:
        """The current stage's words and their embeddings (no PADDING/UNKNOWN rows)."""
        rows = self.n_rows
        table = self.model.word.weight.detach()[len(SPECIALS) : rows]
        return self.corpus.vocab[: rows - len(SPECIALS)], table.cpu().numpy()


def pretrain(
    paths: list[Path], output_dir: Path, config: PretrainConfig, resume: bool = False
) -> dict:
    """Train the ranking LM on raw text and write a vectors pipeline to `output_dir`.

    Returns the run's metadata (also written to OUTPUT_DIR/lm_meta.json).
    """
    config.validate()
    if not paths:
        raise ValueError("No input text files given.")
    output_dir = Path(output_dir)
    if output_dir.exists() and not output_dir.is_dir():
        raise ValueError(f"The output path {output_dir} exists and is not a directory.")
    ckpt_path = work_dir(output_dir) / "checkpoint.pt"
    inputs = fingerprint(paths)
    checkpoint = _load_checkpoint(ckpt_path, config, inputs) if resume else None
    if not resume and ckpt_path.exists():
        warn(f"Starting afresh: {ckpt_path} will be overwritten (--resume continues it).")
    if config.threads:
        torch.set_num_threads(config.threads)
    device = torch.device(config.device or ("cuda" if torch.cuda.is_available() else "cpu"))
    torch.manual_seed(config.seed)

    encode_start = time.perf_counter()
    if config.progress:
        print(f"ℹ Reading {len(paths)} text file(s)...", file=sys.stderr, flush=True)
    corpus = load_or_encode(
        paths,
        work_dir(output_dir) / "corpus",
        CorpusSettings(
            vocab_size=config.vocab_size,
            window=config.window,
            validation_words=config.validation_words,
            max_line_tokens=config.max_line_tokens,
            tokenizer=config.tokenizer,
        ),
    )
    encode_seconds = time.perf_counter() - encode_start
    trainer = _Trainer(corpus, config, device, checkpoint)
    total_words = None
    if not config.max_seconds:
        budgets = [config.max_words] if config.max_words else []
        if config.epochs:
            budgets.append(int(config.epochs * corpus.n_train_tokens))
        total_words = min(budgets)
    bar = _Progress(config.progress, total_words, trainer.state["words_seen"])
    bar.write(
        f"Corpus: {corpus.n_train_tokens:,} training words, {corpus.n_valid_tokens:,} "
        f"held out, {corpus.meta['types']:,} distinct, dictionary {len(corpus.vocab):,} "
        f"(stages {trainer.stages}); encoded in {encode_seconds:.0f}s. Device {device}, "
        f"{torch.get_num_threads()} thread(s)."
    )
    try:
        trainer.train(bar, lambda: trainer.save(ckpt_path, inputs))
    finally:
        bar.close()

    words, table = trainer.vectors()
    neighbours = nearest_neighbours(words, table, PAPER_QUERIES, k=10)
    found = {q: n for q, n in neighbours.items() if n is not None}
    state = trainer.state
    meta = {
        "config": asdict(config),
        "inputs": inputs,
        "corpus": {
            "train_words": corpus.n_train_tokens,
            "valid_words": corpus.n_valid_tokens,
            "distinct_words": corpus.meta["types"],
            "dictionary": len(corpus.vocab),
            "encode_seconds": round(encode_seconds, 1),
        },
        "stages": trainer.stages,
        "final_dictionary": len(words),
        "words_seen": state["words_seen"],
        "epochs": round(trainer.epochs_done, 4),
        "seconds": round(state["seconds"], 1),
        "train_seconds": round(state["train_seconds"], 1),
        "words_per_second": round(trainer.words_per_second),
        "seconds_per_epoch": (
            round(corpus.n_train_tokens / trainer.words_per_second)
            if trainer.words_per_second
            else None
        ),
        "stop_reason": state["stop_reason"],
        "device": str(device),
        "threads": torch.get_num_threads(),
        "validation": state["curve"],
        "nearest_neighbours": found,
    }
    write_vectors(words, table, output_dir, name="spacy_senna_lm", meta=meta)
    if config.progress:
        print(
            f"✔ Wrote {len(words):,} × {table.shape[1]} vectors to {output_dir} "
            f"({state['words_seen']:,} words in {state['seconds']:.0f}s, "
            f"{meta['words_per_second']:,} w/s; {state['stop_reason']}). "
            f"Checkpoint: {ckpt_path}",
            file=sys.stderr,
        )
        if found:
            print(format_neighbours(found, words), file=sys.stderr)
    return meta
