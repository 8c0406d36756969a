"""What Python's cyclic garbage collector costs `nlp.pipe`, with the collector paused
while a component labels a batch (as spacy_senna does, `runtime/collector.py`) and running
throughout, in alternating rounds of one process.

usage: python benchmarks/speed/collector_share.py TEXTS.txt [--pipeline en_senna]
       [--rounds 5] [--batch-size 256] [--exclude COMPONENT]...

TEXTS.txt holds one text per line. Per variant: the best and the median round's seconds,
and over all its rounds the collector's seconds (timed by `gc.callbacks`), its full
collections and its share of the time; last, the ratio of the best rounds, paused /
running (below 1: the pause is faster).
"""

from __future__ import annotations

import argparse
import gc
import statistics
import time
from collections import Counter
from contextlib import nullcontext
from typing import Dict, List

import spacy
import torch

from spacy_senna.pipeline import batched, sequence_labeler, span_scores
from spacy_senna.runtime.collector import collector_paused

#: every module that pauses the collector around a batch (and the lazy span probabilities'
#: fill), by the name it calls it by
PAUSING_MODULES = (sequence_labeler, batched, span_scores)


class CollectorClock:
    """The collector's seconds and collections per generation, while `running`."""

    def __init__(self) -> None:
        self.seconds = 0.0
        self.collections: Counter = Counter()
        self.running = False
        self._started = 0.0

    def __call__(self, phase: str, info: Dict) -> None:
        if not self.running:
            return
        if phase == "start":
            self._started = time.perf_counter()
        else:
            self.seconds += time.perf_counter() - self._started
            self.collections[info["generation"]] += 1


def set_pause(paused: bool) -> None:
    """Make the components pause the collector around a batch, or not."""
    for module in PAUSING_MODULES:
        module.collector_paused = collector_paused if paused else nullcontext


def compare(nlp, texts: List[str], rounds: int, batch_size: int) -> Dict[str, Dict]:
    """Per variant ("paused", "running"): best seconds, collector seconds, full
    collections and total seconds over the rounds."""
    clock = CollectorClock()
    gc.callbacks.append(clock)
    results = {
        name: {"best": float("inf"), "gc": 0.0, "full": 0, "total": 0.0, "rounds": []}
        for name in ("paused", "running")
    }
    try:
        for _ in range(rounds):
            for name in results:
                set_pause(name == "paused")
                clock.seconds, clock.collections = 0.0, Counter()
                clock.running = True
                start = time.perf_counter()
                for _doc in nlp.pipe(texts, batch_size=batch_size):
                    pass
                seconds = time.perf_counter() - start
                clock.running = False
                result = results[name]
                result["best"] = min(result["best"], seconds)
                result["total"] += seconds
                result["rounds"].append(seconds)
                result["gc"] += clock.seconds
                result["full"] += clock.collections[2]
    finally:
        gc.callbacks.remove(clock)
        set_pause(True)
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("texts")
    parser.add_argument("--pipeline", default="en_senna")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--batch-size", type=int, default=256)
    parser.add_argument("--exclude", action="append", default=[])
    args = parser.parse_args()
    torch.set_num_threads(1)
    texts = [line.strip() for line in open(args.texts, encoding="utf8") if line.strip()]
    nlp = spacy.load(args.pipeline, exclude=args.exclude)
    for _doc in nlp.pipe(texts[:50]):
        pass
    results = compare(nlp, texts, args.rounds, args.batch_size)
    for name, r in results.items():
        median = statistics.median(r["rounds"])
        share = 100 * r["gc"] / r["total"]
        print(
            f"{name:8s} best {r['best']:.3f} s  median {median:.3f} s  collector "
            f"{r['gc']:.3f} s over {args.rounds} rounds ({share:.1f}%), "
            f"{r['full']} full collections"
        )
    print(f"paused / running = {results['paused']['best'] / results['running']['best']:.3f}")


if __name__ == "__main__":
    main()
