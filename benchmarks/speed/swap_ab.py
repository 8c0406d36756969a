"""Two versions of one piece of spacy_senna timed in one process, in alternating rounds:
the pipeline's time per text with a module attribute (a constant, or a function from
another file, e.g. the last commit's copy of a module) set to A, then to B, and again.

usage: python benchmarks/speed/swap_ab.py TEXTS.txt MODULE ATTRIBUTE A B
       [--docs 300] [--rounds 5] [--pipe] [--pipeline en_senna]

A and B are Python literals (`800`) or `FILE.py:NAME` (NAME from that file, run as a
module of its own; a relative import of spacy_senna's layers must be written absolute).
ATTRIBUTE and NAME may be dotted, naming a class's attribute (`LastCall.get`).
Without `--pipe` each of the first `--docs` texts (one per line) is labelled by `nlp(text)`
one at a time; with it, all of them go through `nlp.pipe` in batches of 256. Each
variant keeps its best round; the ratio B / A is printed last (below 1: B is faster).

Two processes on this machine differ by as much as a few percent of each other's time
(the anchors' own spread in `latency_vs_anchor.py`); one process swapping the attribute
between rounds measures a small change under the same conditions. Code that reads the
attribute at call time sees the swap (a module-level function called by name, a constant
read in a function); a name imported elsewhere with `from MODULE import NAME` does not.
"""

from __future__ import annotations

import argparse
import ast
import importlib
import importlib.util
import time
from pathlib import Path
from typing import Any, Dict, List

import spacy
import torch


def variant_value(spec: str) -> Any:
    """A literal, or NAME from FILE.py for `FILE.py:NAME`."""
    if ".py:" in spec:
        path, name = spec.rsplit(":", 1)
        loaded = importlib.util.spec_from_file_location(f"swap_ab_{Path(path).stem}", path)
        if loaded is None or loaded.loader is None:
            raise SystemExit(f"✘ cannot load {path}")
        module = importlib.util.module_from_spec(loaded)
        loaded.loader.exec_module(module)
        return _resolve(module, name)
    return ast.literal_eval(spec)


def _resolve(owner: Any, dotted: str) -> Any:
    for part in dotted.split("."):
        owner = getattr(owner, part)
    return owner


def swap_ab(
    texts: List[str],
    module: str,
    attribute: str,
    values: Dict[str, Any],
    rounds: int = 5,
    pipe: bool = False,
    pipeline: str = "en_senna",
) -> Dict[str, float]:
    """Seconds of each variant's best round over `texts` (the attribute restored after)."""
    torch.set_num_threads(1)
    owner_path, _, attribute = attribute.rpartition(".")
    target = importlib.import_module(module)
    if owner_path:
        target = _resolve(target, owner_path)
    original = getattr(target, attribute)
    nlp = spacy.load(pipeline)

    def run() -> None:
        if pipe:
            for _ in nlp.pipe(texts, batch_size=256):
                pass
        else:
            for text in texts:
                nlp(text)

    best = {name: float("inf") for name in values}
    try:
        for value in values.values():  # warm-up: compile, fill caches
            setattr(target, attribute, value)
            run()
        for _ in range(rounds):
            for name, value in values.items():
                setattr(target, attribute, value)
                start = time.perf_counter()
                run()
                best[name] = min(best[name], time.perf_counter() - start)
    finally:
        setattr(target, attribute, original)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("texts", type=Path)
    parser.add_argument("module")
    parser.add_argument("attribute")
    parser.add_argument("a")
    parser.add_argument("b")
    parser.add_argument("--docs", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--pipe", action="store_true")
    parser.add_argument("--pipeline", default="en_senna")
    args = parser.parse_args()
    with open(args.texts, encoding="utf8") as f:
        texts = [line.strip() for line in f if line.strip()]
    if not args.pipe:
        texts = texts[: args.docs]
    values = {"A": variant_value(args.a), "B": variant_value(args.b)}
    best = swap_ab(
        texts, args.module, args.attribute, values, args.rounds, args.pipe, args.pipeline
    )
    unit = "s in all" if args.pipe else "ms a text"
    scale = 1.0 if args.pipe else 1000.0 / len(texts)
    for name, spec in (("A", args.a), ("B", args.b)):
        print(f"{name} {best[name] * scale:8.3f} {unit}  {args.attribute} = {spec}")
    print(f"B/A={best['B'] / best['A']:.3f}")


if __name__ == "__main__":
    main()
