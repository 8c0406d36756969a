"""Load time, words/s with every component, and peak RSS of a pipeline, in one process.

    python scripts/bundled_speed.py PIPELINE DATA.spacy [--rounds 3] [--json FILE]

The docs are fresh copies of the data's words (no annotation), piped in batches of 256 as
compare_speed does, after one warm-up pass; the median of the rounds is reported.
"""

from __future__ import annotations

import argparse
import json
import platform
import resource
import statistics
import time
from pathlib import Path

import spacy
from spacy.tokens import Doc, DocBin


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("pipeline")
    parser.add_argument("data")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    start = time.perf_counter()
    nlp = spacy.load(args.pipeline)
    load_seconds = time.perf_counter() - start
    words = [[t.text for t in doc] for doc in DocBin().from_disk(args.data).get_docs(nlp.vocab)]
    n_words = sum(len(w) for w in words)

    def one_round() -> float:
        docs = [Doc(nlp.vocab, words=w) for w in words]
        begin = time.perf_counter()
        for _ in nlp.pipe(docs, batch_size=256):
            pass
        return n_words / (time.perf_counter() - begin)

    one_round()
    rates = [one_round() for _ in range(args.rounds)]
    result = {
        "pipeline": args.pipeline,
        "components": nlp.pipe_names,
        "words": n_words,
        "load_seconds": round(load_seconds, 2),
        "words_per_second": round(statistics.median(rates)),
        "rounds": [round(r) for r in rates],
        "peak_rss_mib": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024),
        "machine": platform.processor() or platform.machine(),
        "python": platform.python_version(),
    }
    print(json.dumps(result, indent=2))
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(result, indent=2) + "\n", encoding="utf8")


if __name__ == "__main__":
    main()
