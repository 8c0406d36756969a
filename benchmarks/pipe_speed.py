"""Words/s of `nlp.pipe` over raw texts on one device: one CPU thread, or a GPU.

usage: python benchmarks/pipe_speed.py TEXTS.txt [--pipeline en_senna] [--gpu-id N]
       [--rounds 3] [--batch-size 256] [--exclude senna_srl ...] [--json FILE]
       [--against EARLIER.json]

TEXTS.txt holds one text per line. The pipeline is loaded (on the GPU with `--gpu-id`,
`spacy.require_gpu`), warmed up on the first 20 texts, then pipes every text `--rounds`
times; the best round counts, as in `speed_vs_anchor.py`. Run it once per device, each in
its own process (a process that has chosen the GPU keeps it): `--json` keeps a run's
figures, `--against` prints this run's words/s over an earlier run's.
`benchmarks/gpu_check.sh` does so for issue #47's `nlp.pipe` on a GPU against one CPU core.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import Dict, List

import spacy
import torch


def pipe_speed(
    pipeline: str, texts: List[str], gpu_id: int, rounds: int, batch_size: int, exclude: List[str]
) -> Dict[str, object]:
    """The best round's seconds and words/s of `nlp.pipe(texts)` on the chosen device."""
    if gpu_id >= 0:
        spacy.require_gpu(gpu_id)
    else:
        torch.set_num_threads(1)
    nlp = spacy.load(pipeline, exclude=exclude)
    list(nlp.pipe(texts[:20], batch_size=batch_size))
    best, words = float("inf"), 0
    for _ in range(rounds):
        start = time.perf_counter()
        words = sum(len(doc) for doc in nlp.pipe(texts, batch_size=batch_size))
        if gpu_id >= 0:
            torch.cuda.synchronize()
        best = min(best, time.perf_counter() - start)
    return {
        "device": f"cuda:{gpu_id}" if gpu_id >= 0 else "cpu, one thread",
        "components": nlp.pipe_names,
        "words": words,
        "seconds": round(best, 3),
        "words_per_second": round(words / best),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("texts", type=Path)
    parser.add_argument("--pipeline", default="en_senna")
    parser.add_argument("--gpu-id", type=int, default=-1)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--batch-size", type=int, default=256)
    parser.add_argument("--exclude", nargs="*", default=[])
    parser.add_argument("--json", type=Path)
    parser.add_argument("--against", type=Path, help="an earlier run's --json (another device)")
    args = parser.parse_args()
    texts = [line.strip() for line in args.texts.open(encoding="utf8") if line.strip()]
    if not texts:
        raise SystemExit(f"✘ {args.texts} holds no text")
    result = pipe_speed(
        args.pipeline, texts, args.gpu_id, args.rounds, args.batch_size, args.exclude
    )
    print(
        f"{result['device']}: {result['words_per_second']:,} words/s "
        f"({result['words']:,} words in {result['seconds']} s; {', '.join(result['components'])})"
    )
    if args.json:
        args.json.write_text(json.dumps(result, indent=2) + "\n", encoding="utf8")
    if args.against:
        earlier = json.loads(args.against.read_text(encoding="utf8"))
        ratio = result["words_per_second"] / earlier["words_per_second"]
        print(f"{ratio:.2f}x {earlier['device']} ({earlier['words_per_second']:,} words/s)")


if __name__ == "__main__":
    main()
