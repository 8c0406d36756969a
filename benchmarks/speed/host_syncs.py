"""How often a pipeline's tensor code would make a GPU wait for the CPU, counted on the CPU.

usage: python benchmarks/speed/host_syncs.py PIPELINE TEXTS.txt [--batch-size 256] [--gpu-paths]

On a GPU, reading a tensor's value on the host (`item`, `tolist`, `bool`, `int`, `cpu`,
`numpy`) or an operation whose output size depends on the data (`nonzero`, `unique`,
boolean indexing, ...) waits until the queued kernels have run. This pipes the texts
(one per line) through each component in turn, in batches, under a TorchFunctionMode
that counts those calls per component and names the lines of spacy_senna that make them,
so the count a GPU run would pay is known before a GPU is lent. `--gpu-paths` decodes
with the packed torch decoder a GPU takes (a CPU decodes compiled, reading the scores
once), its transition blocks taking the dense max-plus step (the CPU's pruned step reads
a bound per step), keeps small decodes out of NumPy (a CPU-only path) and cuts a batch
into calls as a GPU of 32 GB or more does (`batching.GPU_PREDICT_FLOATS`), so the counts
are the GPU's.
"""

from __future__ import annotations

import argparse
import traceback
from collections import Counter
from typing import Any, Dict, List, Tuple

import spacy
import torch
from thinc.api import use_ops
from torch.overrides import TorchFunctionMode

READS = frozenset(
    {"item", "tolist", "__bool__", "__int__", "__index__", "__float__", "numpy", "cpu"}
)
SIZED = frozenset({"nonzero", "argwhere", "unique", "unique_consecutive", "masked_select"})


def _kind(func: Any, args: tuple) -> str | None:
    """The kind of wait a call makes the device do ("read:NAME", "size:NAME"), or None."""
    name = getattr(func, "__name__", "")
    if name in READS:
        return f"read:{name}"
    if name in SIZED:
        return f"size:{name}"
    if name == "__getitem__" and len(args) > 1:
        index = args[1] if isinstance(args[1], tuple) else (args[1],)
        if any(isinstance(i, torch.Tensor) and i.dtype == torch.bool for i in index):
            return "size:boolean index"
    return None


class HostSyncCounter(TorchFunctionMode):
    """Counts (component, kind) and (component, kind, spacy_senna line) of waiting calls,
    and each component's torch operations (calls of torch functions and tensor methods:
    about the kernels a GPU would launch)."""

    def __init__(self) -> None:
        super().__init__()
        self.component = "-"
        self.counts: Counter = Counter()
        self.lines: Counter = Counter()
        self.operations: Counter = Counter()

    def __torch_function__(self, func, types, args=(), kwargs=None):
        self.operations[self.component] += 1
        kind = _kind(func, args)
        if kind is not None:
            self.counts[(self.component, kind)] += 1
            ours = [f for f in traceback.extract_stack(limit=12) if "spacy_senna" in f.filename]
            if ours:
                line = f"{ours[-1].filename.split('spacy_senna')[-1].lstrip('/')}:{ours[-1].lineno}"
                self.lines[(self.component, kind, line)] += 1
        return func(*args, **(kwargs or {}))


def _never(*_: Any) -> bool:
    return False


def count_host_syncs(
    pipeline: str, texts: List[str], batch_size: int = 256, gpu_paths: bool = False
) -> Dict[str, Any]:
    """{"batches", "words", "per_component": {name: count}, "operations": {name: count},
    "counts", "lines"} for one pass,
    on the CPU whatever device the process uses (under `spacy.require_gpu()` the pipeline
    would take the GPU's paths both times: the CPU's count would be the GPU's)."""
    torch.set_num_threads(1)
    with use_ops("numpy"):
        return _count(spacy.load(pipeline), texts, batch_size, gpu_paths)


def _count(nlp: Any, texts: List[str], batch_size: int, gpu_paths: bool) -> Dict[str, Any]:
    list(nlp.pipe(texts[:20]))  # warm caches, as a timed run would
    docs = [nlp.make_doc(text) for text in texts]
    counter = HostSyncCounter()
    if gpu_paths:
        from spacy_senna.layers import crf, crf_viterbi, transition_blocks
        from spacy_senna.pipeline import batching

        cpu_bound = batching.MAX_PREDICT_FLOATS
        batching.MAX_PREDICT_FLOATS = batching.GPU_PREDICT_FLOATS

        compiled = crf._decodes_compiled
        crf._decodes_compiled = _never  # a GPU decodes with the packed torch decoder

        pruned = transition_blocks.TransitionBlocks._block_max_plus
        transition_blocks.TransitionBlocks._block_max_plus = (
            transition_blocks.TransitionBlocks._dense_max_plus
        )
        small = crf_viterbi.SMALL_VITERBI_FLOATS
        crf_viterbi.SMALL_VITERBI_FLOATS = 0
    try:
        with counter:
            for name, component in nlp.pipeline:
                counter.component = name
                if hasattr(component, "pipe"):
                    docs = list(component.pipe(docs, batch_size=batch_size))
                else:
                    docs = [component(doc) for doc in docs]
    finally:
        if gpu_paths:
            transition_blocks.TransitionBlocks._block_max_plus = pruned
            crf_viterbi.SMALL_VITERBI_FLOATS = small
            crf._decodes_compiled = compiled
            batching.MAX_PREDICT_FLOATS = cpu_bound
    per_component: Counter = Counter()
    for (name, _), n in counter.counts.items():
        per_component[name] += n
    return {
        "batches": -(-len(docs) // batch_size),
        "words": sum(len(doc) for doc in docs),
        "per_component": dict(per_component),
        "operations": dict(counter.operations),
        "counts": counter.counts,
        "lines": counter.lines,
    }


def _table(rows: List[Tuple[Any, ...]]) -> str:
    return "\n".join("| " + " | ".join(str(c) for c in row) + " |" for row in rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("pipeline")
    parser.add_argument("texts")
    parser.add_argument("--batch-size", type=int, default=256)
    parser.add_argument("--gpu-paths", action="store_true")
    args = parser.parse_args()
    with open(args.texts, encoding="utf8") as f:
        texts = [line.strip() for line in f if line.strip()]
    result = count_host_syncs(args.pipeline, texts, args.batch_size, args.gpu_paths)
    batches = result["batches"]
    print(f"{result['words']} words, {batches} batches of {args.batch_size} docs")
    rows = [
        ("component", "waiting calls", "per batch", "torch operations", "per batch"),
        ("---", "---:", "---:", "---:", "---:"),
    ]
    for name, n in result["per_component"].items():
        operations = result["operations"].get(name, 0)
        rows.append((name, n, f"{n / batches:.0f}", operations, f"{operations / batches:.0f}"))
    print(_table(rows))
    print("\nmost frequent lines:")
    for (name, kind, line), n in result["lines"].most_common(20):
        print(f"  {name:16s} {kind:20s} {line:45s} {n}")


if __name__ == "__main__":
    main()
