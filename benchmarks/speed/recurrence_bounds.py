"""Where the compiled LSTM recurrence stops paying: one bidirectional layer over R rows,
timed four ways, which is what `lstm_compiled.COMPILED_MAX_CELLS` (against PyTorch's
packed LSTM) and `STEP_LOOP_MAX_CELLS` (against PyTorch's cell step by step, SRL's first
layer) were chosen from.

usage: python benchmarks/speed/recurrence_bounds.py [--units 100] [--inputs 200]
       [--rows 4 8 12 16 24 32] [--steps 25] [--rounds 5] [--json FILE]

For rows of one length (`--steps`, a sentence's predicates) and of lengths drawn from 8 to
45 (a paragraph's), milliseconds a call, best of `--rounds`:
- packed: `nn.LSTM` over the packed rows (its input product included);
- compiled: `compiled_bidirectional` (the input product, then the compiled recurrence);
- step loop: `both_directions` with `factored_rows.lstm_direction`, given the input gates;
- compiled gates: `compiled_both_directions`, given the same input gates.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import Callable, List, Sequence

import numpy
import torch
from torch import nn
from torch.nn.utils.rnn import PackedSequence

from spacy_senna.layers import lstm_compiled
from spacy_senna.layers.factored_rows import lstm_direction

WAYS = ("packed", "compiled", "step loop", "compiled gates")


def batch_sizes(lengths: numpy.ndarray) -> List[int]:
    """A packed batch's sizes for rows of `lengths` (sorted longest first)."""
    return [int((lengths > t).sum()) for t in range(int(lengths.max()))]


def _best_ms(call: Callable[[], object], rounds: int, repeats: int) -> float:
    best = float("inf")
    for _ in range(rounds):
        start = time.perf_counter()
        for _ in range(repeats):
            call()
        best = min(best, (time.perf_counter() - start) / repeats)
    return best * 1e3


def compare(
    units: int,
    inputs: int,
    rows: Sequence[int],
    steps: int = 25,
    rounds: int = 5,
    repeats: int = 10,
    seed: int = 0,
) -> List[dict]:
    """Per row count and kind of lengths ("same", "mixed"): ms a call for each of `WAYS`
    (a fixed `seed` draws the weights, inputs and mixed lengths)."""
    torch.manual_seed(seed)
    rng = numpy.random.default_rng(seed)
    lstm = nn.LSTM(inputs, units, bidirectional=True).eval()
    out = []
    with torch.inference_mode():
        for kind in ("same", "mixed"):
            for n in rows:
                if kind == "same":
                    lengths = numpy.full(n, steps)
                else:
                    lengths = numpy.sort(rng.integers(8, 46, n))[::-1]
                sizes = batch_sizes(lengths)
                x = torch.randn(sum(sizes), inputs)
                gates = nn.functional.linear(x, *lstm_compiled._input_weights(lstm))
                calls = {
                    "packed": lambda: lstm(PackedSequence(x, torch.tensor(sizes))),
                    "compiled": lambda: lstm_compiled.compiled_bidirectional(lstm, x, sizes),
                    "step loop": lambda: lstm_compiled.both_directions(
                        lstm_direction, lstm, gates, sizes
                    ),
                    "compiled gates": lambda: lstm_compiled.compiled_both_directions(
                        lstm, gates, sizes
                    ),
                }
                for call in calls.values():
                    call()  # compiled once
                row = {"kind": kind, "rows": n, "cells": n * units}
                row.update({way: _best_ms(calls[way], rounds, repeats) for way in WAYS})
                out.append(row)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--units", type=int, default=100)
    parser.add_argument("--inputs", type=int, default=200)
    parser.add_argument("--rows", type=int, nargs="+", default=[4, 8, 12, 16, 24, 32])
    parser.add_argument("--steps", type=int, default=25)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    torch.set_num_threads(1)
    results = compare(args.units, args.inputs, args.rows, args.steps, args.rounds)
    print(
        f"{args.inputs} -> {args.units} units each way; COMPILED_MAX_CELLS "
        f"{lstm_compiled.COMPILED_MAX_CELLS}, STEP_LOOP_MAX_CELLS "
        f"{lstm_compiled.STEP_LOOP_MAX_CELLS}; ms a call"
    )
    print("| lengths | rows | cells | " + " | ".join(WAYS) + " |")
    print("|---|---:|---:|" + "---:|" * len(WAYS))
    for row in results:
        cells = " | ".join(f"{row[way]:.2f}" for way in WAYS)
        print(f"| {row['kind']} | {row['rows']} | {row['cells']} | {cells} |")
    if args.json:
        args.json.write_text(json.dumps(results, indent=2) + "\n", encoding="utf8")


if __name__ == "__main__":
    main()
