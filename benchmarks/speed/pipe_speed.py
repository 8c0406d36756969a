"""Load time, words/s of `nlp.pipe` and peak RSS of one pipeline on one device (one CPU
thread, or a GPU), in one process.

usage: python benchmarks/speed/pipe_speed.py TEXTS.txt|DATA.spacy [--pipeline en_senna]
       [--gpu-id N] [--rounds 3] [--batch-size 256] [--exclude senna_srl ...]
       [--json FILE] [--against EARLIER.json]

The input is raw texts, one per line, or a DocBin whose words are piped as fresh Docs (no
annotation) each round. The pipeline is loaded (on the GPU with `--gpu-id`,
`spacy.require_gpu`), warmed up on the first 20 inputs, then pipes them all `--rounds`
times; the median round is reported, with every round. Run it once per device, each in
its own process (a process that has chosen the GPU keeps it): `--json` keeps a run's
figures, `--against` prints this run's words/s over an earlier run's.
`benchmarks/speed/gpu_check.sh` does so for issue #47's `nlp.pipe` on a GPU against one CPU
core; projects/open's `speed` step records en_senna's figures with it.
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import time
from pathlib import Path
from typing import Callable, Dict, List, Sequence, Union

import spacy
import torch
from spacy.language import Language
from spacy.tokens import Doc, DocBin

from spacy_senna.annotate.results import peak_rss_mib

Inputs = Callable[[], List[Union[str, Doc]]]


def read_inputs(path: Path, nlp: Language) -> Inputs:
    """A function giving fresh inputs for one round: the lines of a text file, or new
    Docs of a DocBin's words."""
    if path.suffix == ".spacy":
        words = [[t.text for t in doc] for doc in DocBin().from_disk(path).get_docs(nlp.vocab)]
        return lambda: [Doc(nlp.vocab, words=w) for w in words]
    texts = [line.strip() for line in path.open(encoding="utf8") if line.strip()]
    return lambda: list(texts)


def pipe_speed(
    pipeline: str,
    path: Path,
    gpu_id: int = -1,
    rounds: int = 3,
    batch_size: int = 256,
    exclude: Sequence[str] = (),
) -> Dict[str, object]:
    """Load time, the median round's words/s (and each round's) and peak RSS."""
    if gpu_id >= 0:
        spacy.require_gpu(gpu_id)
    else:
        torch.set_num_threads(1)
    start = time.perf_counter()
    nlp = spacy.load(pipeline, exclude=list(exclude))
    load_seconds = time.perf_counter() - start
    inputs = read_inputs(path, nlp)
    if not inputs():
        raise ValueError(f"{path} holds no text")
    list(nlp.pipe(inputs()[:20], batch_size=batch_size))
    rates, words = [], 0
    for _ in range(rounds):
        docs = inputs()
        begin = time.perf_counter()
        words = sum(len(doc) for doc in nlp.pipe(docs, batch_size=batch_size))
        if gpu_id >= 0:
            torch.cuda.synchronize()
        rates.append(words / (time.perf_counter() - begin))
    return {
        "pipeline": pipeline,
        "device": f"cuda:{gpu_id}" if gpu_id >= 0 else "cpu, one thread",
        "components": nlp.pipe_names,
        "words": words,
        "load_seconds": round(load_seconds, 2),
        "words_per_second": round(statistics.median(rates)),
        "rounds": [round(rate) for rate in rates],
        "peak_rss_mib": round(peak_rss_mib()),
        "machine": platform.processor() or platform.machine(),
        "python": platform.python_version(),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("inputs", type=Path, help="a text file (one text per line) or a DocBin")
    parser.add_argument("--pipeline", default="en_senna")
    parser.add_argument("--gpu-id", type=int, default=-1)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--batch-size", type=int, default=256)
    parser.add_argument("--exclude", nargs="*", default=[])
    parser.add_argument("--json", type=Path)
    parser.add_argument("--against", type=Path, help="an earlier run's --json (another device)")
    args = parser.parse_args()
    try:
        result = pipe_speed(
            args.pipeline, args.inputs, args.gpu_id, args.rounds, args.batch_size, args.exclude
        )
    except ValueError as err:
        raise SystemExit(f"✘ {err}") from None
    print(
        f"{result['device']}: {result['words_per_second']:,} words/s "
        f"({result['words']:,} words, rounds {result['rounds']}; loaded in "
        f"{result['load_seconds']} s; peak RSS {result['peak_rss_mib']:,} MiB; "
        f"{', '.join(result['components'])})"
    )
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(result, indent=2) + "\n", encoding="utf8")
    if args.against:
        earlier = json.loads(args.against.read_text(encoding="utf8"))
        ratio = result["words_per_second"] / earlier["words_per_second"]
        print(f"{ratio:.2f}x {earlier['device']} ({earlier['words_per_second']:,} words/s)")


if __name__ == "__main__":
    main()
