"""A/B of `pretrain-lm`'s use of the CPU cores: worker processes against intra-op threads.

usage: python benchmarks/lm/lm_parallel.py TEXT [--words 4000000] [--max-words 3000000]
           [--max-seconds 150] [--rounds 2] [--variants 1x1,2x1,1x2,1x2@4096]
           [--output lm_parallel.json]
       python benchmarks/lm/lm_parallel.py --continue-run RUN_DIR [--max-seconds 150] ...

Takes the first `--words` whitespace tokens of TEXT (plain or gzipped; e.g.
../shared/data/raw-text/enwiki-2015-part1.txt.gz) into a temporary directory (never the
repository), then trains `--max-words` windows (or for `--max-seconds`, whichever comes first) on it
with each variant in turn, each
round in the same order, so the variants share the machine's conditions as far as
possible. A variant is WORKERSxTHREADS[@BATCH]: `2x1` = `--workers 2 --threads 1`,
`1x2@4096` = one process with 2 intra-op threads and batches of 4096 windows. Every run
is the real command (`python -m spacy_senna pretrain-lm`, default settings otherwise, no
curriculum, seed 0) in its own process.

A fresh run measures the start of training, where most windows still have a positive
hinge term. `--continue-run RUN_DIR` measures the rest of a long run instead: each run
resumes a copy of a finished `pretrain-lm` run (its checkpoint, its settings and input
files from RUN_DIR/lm_meta.json; the encoded corpus is linked, not copied) for
`--max-seconds` more, and reports the words/s of that continuation. Variants then take
no @BATCH (the batch size is a setting of the run).

Reported per run: training words/s (steps only, validation and checkpoints not counted),
words/s over the whole training loop, words per CPU-second of the training steps (all
their threads and workers: how well the cores are used, whatever else runs beside), the
held-out ranking loss and error after the same number of words, and the load averages
(1 min) before and after the run, since on a shared machine the other jobs' load moves
every number.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from spacy_senna.io.text_input import open_text


def write_slice(source: Path, target: Path, words: int) -> int:
    """The first lines of `source` holding about `words` whitespace tokens."""
    total = 0
    with open_text(source) as text, target.open("w", encoding="utf8") as out:
        for line in text:
            out.write(line)
            total += len(line.split())
            if total >= words:
                break
    return total


def parse_variant(name: str) -> dict:
    """A variant's settings: "2x1@1024" → {"workers": 2, "threads": 1, "batch_size": 1024}."""
    spec, _, batch = name.partition("@")
    workers, _, threads = spec.partition("x")
    return {
        "workers": int(workers),
        "threads": int(threads or 1),
        "batch_size": int(batch or 1024),
    }


def run_variant(
    text: Path, out: Path, variant: dict, max_words: int, max_seconds: float, eval_every: int
) -> dict:
    """One fresh `pretrain-lm` run; its numbers (`measure`)."""
    command = [
        sys.executable,
        "-m",
        "spacy_senna",
        "pretrain-lm",
        str(text),
        str(out),
        "--quiet",
        "--epochs",
        "0",
        "--max-words",
        str(max_words),
        "--max-seconds",
        str(max_seconds),
        "--eval-every-words",
        str(eval_every),
        "--checkpoint-every-seconds",
        "0",
        "--workers",
        str(variant["workers"]),
        "--threads",
        str(variant["threads"]),
        "--batch-size",
        str(variant["batch_size"]),
    ]
    return measure(command, out, variant)


def measure(command: list, out: Path, variant: dict, before: dict | None = None) -> dict:
    """Run `command` (a `pretrain-lm` run writing to `out`); its numbers since `before`.

    `before`: the metadata of the run it resumes (None: a fresh run). Words/s are over
    the training steps, loop words/s over the whole training loop; the load averages
    around the run come with them.
    """
    start_of = before or {"words_seen": 0, "train_seconds": 0.0, "seconds": 0.0}
    load_before = os.getloadavg()[0]
    start = time.perf_counter()
    subprocess.run(command, check=True)
    wall = time.perf_counter() - start
    after = json.loads((out / "lm_meta.json").read_text(encoding="utf8"))
    words = after["words_seen"] - start_of["words_seen"]

    def since_start(key: str) -> float:
        return after[key] - start_of[key]

    def cpu_seconds(meta: dict) -> float:
        return meta["words_seen"] / meta["words_per_cpu_second"] if meta["words_seen"] else 0.0

    last = after["validation"][-1]
    return {
        **variant,
        "words": words,
        "words_per_second": round(words / since_start("train_seconds")),
        "words_per_cpu_second": round(words / (cpu_seconds(after) - cpu_seconds(start_of))),
        "loop_words_per_second": round(words / since_start("seconds")),
        "valid_loss": last["valid_loss"],
        "valid_rank_error": last["valid_rank_error"],
        "command_seconds": round(wall, 1),
        "load_before": round(load_before, 2),
        "load_after": round(os.getloadavg()[0], 2),
    }


#: settings a continuation sets itself (the limits and the variant's runtime settings)
CONTINUATION_SETTINGS = (
    "epochs",
    "max_words",
    "max_seconds",
    "checkpoint_every_seconds",
    "workers",
    "threads",
    "progress",
)


def copy_run(run_dir: Path, copy: Path) -> None:
    """Copy a finished run (vectors, lm_meta.json, checkpoint) to `copy`; link its corpus."""
    shutil.copytree(run_dir, copy)
    work = copy.with_name(copy.name + ".checkpoints")
    work.mkdir()
    source_work = run_dir.with_name(run_dir.name + ".checkpoints")
    shutil.copy(source_work / "checkpoint.pt", work / "checkpoint.pt")
    (work / "corpus").symlink_to((source_work / "corpus").resolve())


def continue_command(run: Path, variant: dict, extra_seconds: float) -> list:
    """The command that resumes the finished run in `run` for `extra_seconds` more."""
    meta = json.loads((run / "lm_meta.json").read_text(encoding="utf8"))
    command = [sys.executable, "-m", "spacy_senna", "pretrain-lm"]
    command += [item["path"] for item in meta["inputs"]] + [str(run), "--resume", "--quiet"]
    for name, value in meta["config"].items():
        if name in CONTINUATION_SETTINGS or value in ("", None):
            continue
        text = ",".join(map(str, value)) if isinstance(value, list) else str(value)
        command += ["--" + name.replace("_", "-"), text]
    limits = [
        "--epochs",
        "0",
        "--max-words",
        "0",
        "--max-seconds",
        str(meta["seconds"] + extra_seconds),
    ]
    runtime = ["--workers", str(variant["workers"]), "--threads", str(variant["threads"])]
    return command + limits + runtime + ["--checkpoint-every-seconds", "0"]


def continue_variant(run_dir: Path, copy: Path, variant: dict, extra_seconds: float) -> dict:
    """Resume a copy of `run_dir` for `extra_seconds`; the continuation's numbers."""
    before = json.loads((run_dir / "lm_meta.json").read_text(encoding="utf8"))
    copy_run(run_dir, copy)
    return measure(continue_command(copy, variant, extra_seconds), copy, variant, before)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("text", type=Path, nargs="?", help="raw text (plain or .gz)")
    parser.add_argument(
        "--continue-run", type=Path, help="resume copies of this finished run instead"
    )
    parser.add_argument("--words", type=int, default=4_000_000, help="words of text to use")
    parser.add_argument("--max-words", type=int, default=3_000_000, help="windows per run")
    parser.add_argument("--max-seconds", type=float, default=150.0, help="cap per run")
    parser.add_argument("--eval-every-words", type=int, default=1_000_000)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument(
        "--variants", help="default: 1x1,2x1,1x2,1x2@4096 (1x1,2x1 with --continue-run)"
    )
    parser.add_argument("--output", type=Path, help="write all runs as JSON")
    args = parser.parse_args(argv)
    if (args.text is None) == (args.continue_run is None):
        parser.error("give either TEXT or --continue-run RUN_DIR")
    if args.variants is None:
        args.variants = "1x1,2x1" if args.continue_run else "1x1,2x1,1x2,1x2@4096"
    variants = [parse_variant(v) for v in args.variants.split(",")]
    if args.continue_run and any("@" in v for v in args.variants.split(",")):
        parser.error("--continue-run keeps the run's batch size: variants take no @BATCH")
    if args.continue_run:
        run = args.continue_run
        checkpoint = run.with_name(run.name + ".checkpoints") / "checkpoint.pt"
        for needed in (run / "lm_meta.json", checkpoint):
            if not needed.is_file():
                parser.error(f"{run} is not a finished pretrain-lm run: {needed} is missing")
        meta = json.loads((run / "lm_meta.json").read_text(encoding="utf8"))
        for variant in variants:
            variant["batch_size"] = meta["config"]["batch_size"]
    runs = []
    with tempfile.TemporaryDirectory(prefix="lm-parallel-") as tmp:
        if args.text:
            text = Path(tmp) / "slice.txt"
            n_words = write_slice(args.text, text, args.words)
            print(f"{n_words:,} words of {args.text}; cpus: {os.cpu_count()}", file=sys.stderr)
        for round_ in range(args.rounds):
            for variant in variants:
                name = f"{variant['workers']}x{variant['threads']}@{variant['batch_size']}"
                out = Path(tmp) / f"{name}-{round_}"
                if args.continue_run:
                    result = continue_variant(args.continue_run, out, variant, args.max_seconds)
                else:
                    result = run_variant(
                        text,
                        out,
                        variant,
                        args.max_words,
                        args.max_seconds,
                        args.eval_every_words,
                    )
                runs.append({"variant": name, "round": round_, **result})
                print(json.dumps(runs[-1]), file=sys.stderr, flush=True)
    print(
        "| variant | words | words/s (steps) | words/s (loop) | words per CPU-second "
        "| valid loss | wrong | load |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for run in runs:
        print(
            f"| {run['variant']} (round {run['round'] + 1}) | {run['words']:,} | "
            f"{run['words_per_second']:,} | "
            f"{run['loop_words_per_second']:,} | {run['words_per_cpu_second']:,} | "
            f"{run['valid_loss']:.4f} | "
            f"{run['valid_rank_error']:.2%} | {run['load_before']}→{run['load_after']} |"
        )
    names = list(dict.fromkeys(run["variant"] for run in runs))
    for name in names:
        speeds = [r["words_per_second"] for r in runs if r["variant"] == name]
        print(f"{name}: median {statistics.median(speeds):,.0f} words/s over {len(speeds)} runs")
    if args.output:
        args.output.write_text(json.dumps(runs, indent=2), encoding="utf8")


if __name__ == "__main__":
    main()
