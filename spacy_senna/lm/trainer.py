"""The training loop of the ranking LM (paper §4.2–4.3): steps, curriculum, validation.

* **Windows** never cross line (sentence/paragraph) boundaries: PADDING beyond them.
* **Batching:** a batch of windows is one step on the summed hinge loss (see
  `optimizers`), negatives drawn as in `negatives`.
* **Curriculum:** the training budget (whichever of epochs, words and seconds runs
  out first) is split into equal shares, one per dictionary size. A stage maps words
  outside its dictionary to UNKNOWN. When the dictionary grows, the known words keep
  their trained rows and each new word keeps its random initial row (untouched so
  far). `curriculum_init="unknown"` instead starts new words from the UNKNOWN row
  (plus a tenth of their random row). UNKNOWN is never a negative, so it scores high
  everywhere; the 40-minute Wikipedia run with "unknown" collapsed transiently after
  two of its four switches (benchmarks/lm/lm_pretraining.md). A short A/B showed no
  collapse with either and a slightly lower loss with "random", the default.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable

import numpy
import torch

from ..layers.lexicon import SPECIALS, UNKNOWN
from .corpus import N_CAPS, EncodedCorpus
from .evaluation import evaluate
from .negatives import sample_candidates
from .optimizers import make_optimizers
from .progress import Progress, format_word_count
from .ranking_model import RankingLM, hinge_terms, ranking_loss, valid_pairs
from .sampler import WindowSampler
from .settings import PretrainConfig
from .torch_state import seeded_cpu_rng


class Trainer:
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
        with seeded_cpu_rng(config.seed):
            model = RankingLM(
                corpus.n_rows,
                N_CAPS,
                word_dim=config.word_dim,
                caps_dim=config.caps_dim,
                window=config.window,
                hidden=config.hidden,
                embed_init=config.embed_init,
            )
        self.model = model.to(device)
        self.optimizers = make_optimizers(self.model, config)
        self.sampler = WindowSampler(corpus, config.batch_size, config.seed)
        self.generator = torch.Generator().manual_seed(config.seed)  # CPU: see negatives.py
        self.state: dict = {
            "words_seen": 0,
            "seconds": 0.0,
            "train_seconds": 0.0,
            "train_cpu_seconds": 0.0,
            "stage": 0,
            "curve": [],
            "stop_reason": "",
        }
        if checkpoint is not None:
            self.model.load_state_dict(checkpoint["model"])
            for opt, opt_state in zip(self.optimizers, checkpoint["optimizers"]):
                opt.load_state_dict(opt_state)
            self.sampler.load_state(checkpoint["sampler"])
            try:
                self.generator.set_state(checkpoint["generator"])
            except RuntimeError:  # a GPU generator's, written before negatives.py drew on the CPU
                raise ValueError(
                    "The checkpoint's random state is not a CPU generator's (an older "
                    "spacy-senna's GPU run): resume it with that version, or start afresh."
                ) from None
            self.state.update(checkpoint["state"])
            if "train_cpu_seconds" not in checkpoint["state"]:
                self.state["train_cpu_seconds"] = math.nan  # not counted before
        self.loss_sum = torch.zeros((), device=device)
        self.pair_sum = torch.zeros((), device=device)
        self.bar: Progress | None = None

    def training_state(self) -> dict:
        """What a checkpoint needs to resume this run exactly (see `__init__`)."""
        return {
            "model": {k: v.cpu() for k, v in self.model.state_dict().items()},
            "optimizers": [opt.state_dict() for opt in self.optimizers],
            "sampler": self.sampler.state(),
            "generator": self.generator.get_state(),
            "state": self.state,
        }

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

    @property
    def words_per_cpu_second(self) -> float:
        """Words per second of CPU time spent in training steps (all their threads)."""
        return self.state["words_seen"] / max(self.state["train_cpu_seconds"], 1e-9)

    def progress_fraction(self, words: int | None = None) -> float:
        """How much of the budget is spent: the largest of the limits' fractions.

        `words`: the words counted as seen (default: those trained on so far).
        """
        config = self.config
        fractions = []
        if config.epochs:
            fractions.append(self.epochs_done / config.epochs)
        if config.max_words:
            words = self.state["words_seen"] if words is None else words
            fractions.append(words / config.max_words)
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
                f"words {format_word_count(point['words'])} | epoch {point['epochs']:.3f} | "
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
        loss, n_pairs = train_step(
            self.model,
            self.optimizers,
            self.corpus,
            positions,
            self.n_rows,
            self.config.negatives,
            self.generator,
        )
        self.loss_sum += loss
        self.pair_sum += n_pairs
        return len(positions)

    def train(self, bar: Progress, save: Callable[[], None]) -> None:
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
                cpu_start = time.process_time()
                n = self.step()
                state["train_cpu_seconds"] += time.process_time() - cpu_start
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


def train_step(
    model: RankingLM,
    optimizers: list[torch.optim.Optimizer],
    corpus: EncodedCorpus,
    positions: numpy.ndarray,
    n_rows: int,
    negatives: int,
    generator: torch.Generator,
) -> tuple[torch.Tensor, torch.Tensor]:
    """One update on the windows centred on `positions`: (summed hinge loss, pair count).

    Only the first `n_rows` word rows are in use (the curriculum stage); negatives come
    from `generator` (a CPU one).

    A window whose hinge terms are all zero has no gradient. The batch is scored without
    autograd, and the backward runs on the windows with a positive term alone (a few per
    cent of a batch once the model ranks well): the update is that of the whole batch,
    at a fraction of the cost. With `adam` the whole batch goes through the backward, as
    SparseAdam also moves the rows of zero-gradient windows.
    """
    device = model.hidden.weight.device
    words, caps = corpus.windows(positions, n_rows)
    words_t = torch.from_numpy(words).to(device)
    caps_t = torch.from_numpy(caps).to(device)
    candidates = sample_candidates(words_t, model.centre, n_rows, negatives, generator)
    if _updates_zero_gradient_rows(optimizers):
        scores = model.score_candidates(words_t, caps_t, candidates)
        loss, n_pairs = ranking_loss(scores, candidates)
        _update(optimizers, loss)
        return loss.detach(), n_pairs
    with torch.no_grad():
        scores = model.score_candidates(words_t, caps_t, candidates)
        terms = hinge_terms(scores, candidates)
    active = terms.gt(0).any(dim=1).nonzero().squeeze(1)
    if len(active):
        chosen = candidates[active]
        active_scores = model.score_candidates(words_t[active], caps_t[active], chosen)
        _update(optimizers, ranking_loss(active_scores, chosen)[0])
    return terms.sum(), valid_pairs(candidates).sum()


def _updates_zero_gradient_rows(optimizers: list[torch.optim.Optimizer]) -> bool:
    """Whether a step moves parameters whose gradient is zero (SparseAdam's momentum)."""
    return any(isinstance(opt, torch.optim.SparseAdam) for opt in optimizers)


def _update(optimizers: list[torch.optim.Optimizer], loss: torch.Tensor) -> None:
    for opt in optimizers:
        opt.zero_grad()
    loss.backward()
    for opt in optimizers:
        opt.step()
