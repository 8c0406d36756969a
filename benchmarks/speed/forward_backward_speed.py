"""Span probabilities' scaled forward-backward on a pipeline's CRFs: the compiled loop
(`forward_backward_compiled`, what the CPU runs) against torch's steps (what a GPU runs),
on the same random emissions, their results checked to agree.

usage: python benchmarks/speed/forward_backward_speed.py [PIPELINE] [--rows 1 16 256]
       [--positions 45] [--rounds 5] [--json FILE]

For each senna component, `--rows` rows of lengths drawn from 8 to `--positions` are
packed in float32 (as labelling's emissions are) and run through
`crf_partition.scaled_forward_backward` both ways, alternating; the best of `--rounds` is
kept, in milliseconds a call, with the largest relative difference of their alpha and
beta.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import List, Sequence

import spacy
import torch

from spacy_senna.bundled import bundled_path
from spacy_senna.layers import crf_partition
from spacy_senna.layers.crf import CRF
from spacy_senna.layers.packed_chains import PackedChains
from spacy_senna.models.senna_model import get_net
from spacy_senna.pipeline.sequence_labeler import SequenceLabeler

WAYS = ("compiled", "torch steps")


def compare(
    crf: CRF, rows: Sequence[int], positions: int = 45, rounds: int = 5, seed: int = 0
) -> List[dict]:
    """Per number of rows: milliseconds a call each way and their largest relative
    difference."""
    generator = torch.Generator().manual_seed(seed)
    with torch.no_grad():
        transitions = (crf.transitions + crf.trans_penalty).double()
        blocks = crf._transition_blocks(transitions)
    compiled = crf_partition._runs_compiled
    out = []
    for n in rows:
        lengths = torch.randint(min(8, positions), positions + 1, (n,), generator=generator)
        emissions = torch.randn(n, positions, crf.n_tags, generator=generator) * 4
        packed = PackedChains.pack([(emissions, lengths)], columns=blocks.order)
        best = {way: float("inf") for way in WAYS}
        results = {}
        for _ in range(rounds):
            for way in WAYS:
                crf_partition._runs_compiled = compiled if way == "compiled" else _never
                try:
                    start = time.perf_counter()
                    with torch.no_grad():
                        results[way] = crf_partition.scaled_forward_backward(
                            packed, blocks, transitions
                        )
                    best[way] = min(best[way], time.perf_counter() - start)
                finally:
                    crf_partition._runs_compiled = compiled
        difference = max(
            float(((a.double() - b.double()).abs() / b.double().abs().clamp_min(1e-30)).max())
            for a, b in zip(results["compiled"][:2], results["torch steps"][:2])
        )
        out.append(
            {
                "tags": crf.n_tags,
                "rows": n,
                "cells": int(lengths.sum()),
                "compiled_ms": best["compiled"] * 1e3,
                "torch_steps_ms": best["torch steps"] * 1e3,
                "relative_difference": difference,
            }
        )
    return out


def _never(values: torch.Tensor) -> bool:
    return False


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("pipeline", nargs="?", default=str(bundled_path()))
    parser.add_argument("--rows", nargs="+", type=int, default=[1, 16, 256])
    parser.add_argument("--positions", type=int, default=45)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    torch.set_num_threads(1)
    nlp = spacy.load(args.pipeline)
    results = {}
    print("| component | tags | rows | cells | compiled ms | torch steps ms | rel. difference |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for name, component in nlp.pipeline:
        if not isinstance(component, SequenceLabeler):
            continue
        crf = get_net(component.model).criterion
        if not isinstance(crf, CRF):
            continue
        results[name] = compare(crf, args.rows, args.positions, args.rounds)
        for row in results[name]:
            print(
                f"| {name} | {row['tags']} | {row['rows']} | {row['cells']} | "
                f"{row['compiled_ms']:.2f} | {row['torch_steps_ms']:.2f} | "
                f"{row['relative_difference']:.1e} |"
            )
    if args.json:
        args.json.write_text(json.dumps(results, indent=2) + "\n", encoding="utf8")


if __name__ == "__main__":
    main()
