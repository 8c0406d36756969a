"""`pretrain`: raw text → encoded corpus → trained ranking LM → vectors pipeline.

The pieces: `settings` (the run's settings), `corpus` (encoding), `sampler` (the order
of the training windows), `trainer` (the training loop and curriculum), `checkpoint`
(resuming), `vectors_pipeline` (the output). Torch's global state (threads, random
generator) is left as it was found (`torch_state`).
"""

from __future__ import annotations

import math
import sys
import time
from dataclasses import asdict
from pathlib import Path

import torch

from .checkpoint import checkpoint_path, load_checkpoint, save_checkpoint, work_dir
from .corpus import CorpusSettings, EncodedCorpus, fingerprint, load_or_encode, warn
from .hogwild import train_hogwild, worker_threads
from .neighbours import PAPER_QUERIES, format_neighbours, nearest_neighbours
from .progress import Progress
from .settings import PretrainConfig
from .torch_state import torch_threads
from .trainer import Trainer
from .vectors_pipeline import check_output_dir, write_vectors

#: seconds between the status lines while the text is read and encoded
READ_STATUS_EVERY = 5.0


def pretrain(
    paths: list[Path], output_dir: Path, config: PretrainConfig, resume: bool = False
) -> dict:
    """Train the ranking LM on raw text and write a vectors pipeline to `output_dir`.

    Returns the run's metadata (also written to OUTPUT_DIR/lm_meta.json).
    """
    config.validate()
    if not paths:
        raise ValueError("No input text files given.")
    inputs = fingerprint(paths)
    output_dir = Path(output_dir)
    check_output_dir(output_dir)
    ckpt_path = checkpoint_path(output_dir)
    checkpoint = load_checkpoint(ckpt_path, config, inputs) if resume else None
    if not resume and ckpt_path.exists():
        warn(f"Starting afresh: {ckpt_path} will be overwritten (--resume continues it).")
    device = _torch_device(config.device or _default_device(config))
    with torch_threads(config.threads):
        return _run(paths, output_dir, config, inputs, checkpoint, device)


def _torch_device(name: str) -> torch.device:
    """The torch device `name`; ValueError if unusable."""
    try:
        device = torch.device(name)
        torch.empty(0, device=device)
    except (RuntimeError, AssertionError) as err:
        text = str(err).strip()
        reason = text.splitlines()[0].split(". ")[0] if text else type(err).__name__
        raise ValueError(f"The torch device {name!r} cannot be used: {reason}") from None
    return device


def _run(
    paths: list[Path],
    output_dir: Path,
    config: PretrainConfig,
    inputs: list[dict],
    checkpoint: dict | None,
    device: torch.device,
) -> dict:
    if config.workers > 1 and device.type != "cpu":
        raise ValueError(
            f"{config.workers} workers train on the CPU, not {device}: "
            "use --device cpu, or --workers 1 on a GPU."
        )
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
            lang=config.lang,
        ),
        progress_every=READ_STATUS_EVERY if config.progress else None,
    )
    encode_seconds = time.perf_counter() - encode_start
    trainer = Trainer(corpus, config, device, checkpoint)
    bar = Progress(config.progress, _total_words(config, corpus), trainer.state["words_seen"])
    bar.write(
        f"Corpus: {corpus.n_train_tokens:,} training words, {corpus.n_valid_tokens:,} "
        f"held out, {corpus.meta['types']:,} distinct, dictionary {len(corpus.vocab):,} "
        f"(stages {trainer.stages}); encoded in {encode_seconds:.0f}s. Device {device}, "
        f"{_processes(config)}."
    )
    ckpt_path = checkpoint_path(output_dir)
    train = train_hogwild if config.workers > 1 else Trainer.train
    try:
        train(
            trainer,
            bar,
            lambda: save_checkpoint(ckpt_path, config, inputs, trainer.training_state()),
        )
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
        "words_per_cpu_second": _rounded(trainer.words_per_cpu_second),
        "seconds_per_epoch": (
            round(corpus.n_train_tokens / trainer.words_per_second)
            if trainer.words_per_second
            else None
        ),
        "stop_reason": state["stop_reason"],
        "device": str(device),
        "threads": worker_threads(config) if config.workers > 1 else torch.get_num_threads(),
        "workers": config.workers,
        "validation": state["curve"],
        "nearest_neighbours": found,
    }
    write_vectors(words, table, output_dir, name="spacy_senna_lm", meta=meta, lang=config.lang)
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


def _rounded(value: float) -> int | None:
    return None if math.isnan(value) else round(value)


def _default_device(config: PretrainConfig) -> str:
    """cuda when there is a GPU and one process trains, else cpu (workers share a model
    in CPU memory)."""
    return "cuda" if config.workers == 1 and torch.cuda.is_available() else "cpu"


def _processes(config: PretrainConfig) -> str:
    if config.workers > 1:
        return f"{config.workers} workers of {worker_threads(config)} thread(s)"
    return f"{torch.get_num_threads()} thread(s)"


def _total_words(config: PretrainConfig, corpus: EncodedCorpus) -> int | None:
    """The run's budget in words for the progress bar (None when limited by time)."""
    if config.max_seconds:
        return None
    budgets = [config.max_words] if config.max_words else []
    if config.epochs:
        budgets.append(int(config.epochs * corpus.n_train_tokens))
    return min(budgets)
