"""The compiled Viterbi's two layouts on a pipeline's CRFs: every transition (dense)
against the allowed ones only (block and narrow tags), on the same random emissions, paths
checked equal. It is what `crf_compiled.DENSE_BELOW_TAGS` was chosen from.

usage: python benchmarks/speed/viterbi_layouts.py [PIPELINE] [--shapes 1x17 64x40 400x60]
       [--rounds 3] [--json FILE]

For each senna component, its CRF's constrained transitions are laid out both ways; each
shape (rows x positions, lengths drawn from 1 to the positions) is decoded `--rounds`
times per layout, alternating, and the best time is kept. The layout `compile_transitions`
picks for the CRF is marked.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import List, Sequence, Tuple

import numpy
import spacy
import torch

from spacy_senna.bundled import bundled_path
from spacy_senna.layers.crf import CRF
from spacy_senna.layers.crf_compiled import allowed_transitions, compiled_decode
from spacy_senna.models.senna_model import get_net
from spacy_senna.pipeline.sequence_labeler import SequenceLabeler


def compare(
    crf: CRF, shapes: Sequence[Tuple[int, int]], rounds: int = 3, seed: int = 0
) -> List[dict]:
    """Per shape: microseconds a call for the dense and the blocked layout, whether their
    paths agree, and which layout the CRF decodes with."""
    chosen = crf._compiled_transitions(True)
    dense = chosen._replace(allowed=None)
    blocked = chosen._replace(allowed=allowed_transitions(torch.from_numpy(chosen.preceding)))
    rng = numpy.random.default_rng(seed)
    out = []
    for rows, positions in shapes:
        emissions = torch.from_numpy(
            rng.normal(0, 3, (rows, positions, crf.n_tags)).astype("float32")
        )
        lengths = torch.from_numpy(rng.integers(1, positions + 1, rows))
        call = [(emissions, lengths)]
        agree = torch.equal(compiled_decode(call, dense)[0], compiled_decode(call, blocked)[0])
        best = {"dense": float("inf"), "blocked": float("inf")}
        repeats = max(1, 2000 // rows)
        for _ in range(rounds):
            for name, layout in (("dense", dense), ("blocked", blocked)):
                start = time.perf_counter()
                for _ in range(repeats):
                    compiled_decode(call, layout)
                best[name] = min(best[name], (time.perf_counter() - start) / repeats)
        out.append(
            {
                "tags": crf.n_tags,
                "rows": rows,
                "positions": positions,
                "dense_us": best["dense"] * 1e6,
                "blocked_us": best["blocked"] * 1e6,
                "agree": agree,
                "decodes_with": "dense" if chosen.allowed is None else "blocked",
            }
        )
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("pipeline", nargs="?", default=str(bundled_path()))
    parser.add_argument("--shapes", nargs="+", default=["1x17", "64x40", "400x60"])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    torch.set_num_threads(1)
    shapes = [tuple(int(n) for n in shape.split("x")) for shape in args.shapes]
    nlp = spacy.load(args.pipeline)
    results = {}
    print("| component | tags | rows x positions | dense us | blocked us | paths equal | used |")
    print("|---|---:|---|---:|---:|---|---|")
    for name, component in nlp.pipeline:
        if not isinstance(component, SequenceLabeler):
            continue
        crf = get_net(component.model).criterion
        if not isinstance(crf, CRF):
            continue
        results[name] = compare(crf, shapes, args.rounds)
        for row in results[name]:
            print(
                f"| {name} | {row['tags']} | {row['rows']} x {row['positions']} | "
                f"{row['dense_us']:.0f} | {row['blocked_us']:.0f} | {row['agree']} | "
                f"{row['decodes_with']} |"
            )
    if args.json:
        args.json.write_text(json.dumps(results, indent=2) + "\n", encoding="utf8")


if __name__ == "__main__":
    main()
