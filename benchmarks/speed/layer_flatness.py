"""Each layer's time per token on one short and one long document, warm, in one process.

usage: python benchmarks/speed/layer_flatness.py TEXT [--pipeline en_senna] [--lengths 10000 160000]
       [--layers senna_tagger senna_chunker senna_ner] [--rounds 3]

Each document is the first N tokens of TEXT. For each length the pipeline's components run
in order up to the last measured layer; every measured layer is then timed alone on a copy
of the document as the layers before it left it (best of `--rounds`). Prints µs per token
per layer and length, and the ratio of the longest to the shortest: a layer whose time per
token is flat in the document's length reads about 1 (issue #64: within 1.3).
"""

import argparse
import time
from typing import Dict, List, Tuple

import spacy
import torch
from spacy.tokens import Doc


def layer_times(
    pipeline: str, text: str, lengths: List[int], layers: List[str], rounds: int
) -> Dict[Tuple[str, int], float]:
    """(layer, length) -> best µs per token."""
    torch.set_num_threads(1)
    nlp = spacy.load(pipeline)
    nlp.max_length = max(len(text) + 1, nlp.max_length)
    words = nlp.make_doc(text)
    times = {}
    for n in lengths:
        if n > len(words):
            raise ValueError(f"The text holds {len(words)} tokens, fewer than {n}.")
        doc = nlp.make_doc(words[:n].text)
        before = {}
        for name, component in nlp.pipeline:
            if name in layers:
                before[name] = doc.to_bytes()
            if len(before) == len(layers):
                break
            doc = component(doc)
        for name in layers:
            best = float("inf")
            for _ in range(rounds):
                copy = Doc(nlp.vocab).from_bytes(before[name])
                start = time.perf_counter()
                nlp.get_pipe(name)(copy)
                best = min(best, time.perf_counter() - start)
            times[(name, n)] = best / len(doc) * 1e6
            print(f"{name:16s} {n:9d} tokens {times[(name, n)]:8.1f} µs/token", flush=True)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("text")
    parser.add_argument("--pipeline", default="en_senna")
    parser.add_argument("--lengths", type=int, nargs="+", default=[10_000, 160_000])
    parser.add_argument(
        "--layers", nargs="+", default=["senna_tagger", "senna_chunker", "senna_ner"]
    )
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    with open(args.text, encoding="utf8") as f:
        text = f.read(30 * max(args.lengths))  # about 5 characters a token: enough
    times = layer_times(args.pipeline, text, args.lengths, args.layers, args.rounds)
    short, long = min(args.lengths), max(args.lengths)
    for name in args.layers:
        ratio = times[(name, long)] / times[(name, short)]
        print(f"{name:16s} {long} / {short} tokens: {ratio:.2f}x")


if __name__ == "__main__":
    main()
