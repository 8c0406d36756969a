"""At which row counts a matrix product gives a row other numbers than a large call does.

usage: python benchmarks/accuracy/product_regimes.py [--shapes 925x300 450x300]
       [--dtype bfloat16] [--max-rows 700] [--reference-rows 5000]

For each shape (inputs x outputs, e.g. a window layer's 925 -> 300), the same random rows
go through `torch.nn.functional.linear` once as a call of `--reference-rows` rows and
again in calls of every row count up to `--max-rows`, each at three offsets into the
rows; it prints the row counts whose calls give some row a different result (as ranges).
This is what decides batch independence (`batch_invariance.py`): a text labelled alone
makes calls of its own row count, `nlp.pipe` calls of a whole batch's. One core, as the
components label.
"""

from __future__ import annotations

import argparse
from typing import Iterable, List, Tuple

import torch

OFFSETS = (0, 13, 1000)


def differing_row_counts(
    n_in: int, n_out: int, dtype: torch.dtype, max_rows: int, reference_rows: int
) -> List[int]:
    """The row counts up to `max_rows` whose calls give some row other numbers than one
    call of `reference_rows` rows."""
    generator = torch.Generator().manual_seed(0)
    weight = (torch.randn(n_out, n_in, generator=generator) * 0.05).to(dtype)
    bias = (torch.randn(n_out, generator=generator) * 0.3).to(dtype)
    rows = (torch.randn(reference_rows, n_in, generator=generator) * 0.5).to(dtype)
    with torch.inference_mode():
        reference = torch.nn.functional.linear(rows, weight, bias)
        differing = []
        for count in range(1, max_rows + 1):
            for offset in OFFSETS:
                if offset + count > reference_rows:
                    continue
                part = torch.nn.functional.linear(rows[offset : offset + count], weight, bias)
                if not torch.equal(part, reference[offset : offset + count]):
                    differing.append(count)
                    break
    return differing


def as_ranges(counts: Iterable[int]) -> List[Tuple[int, int]]:
    """Sorted integers as (first, last) runs of consecutive values."""
    ranges: List[Tuple[int, int]] = []
    for count in sorted(counts):
        if ranges and count == ranges[-1][1] + 1:
            ranges[-1] = (ranges[-1][0], count)
        else:
            ranges.append((count, count))
    return ranges


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--shapes", nargs="+", default=["925x300", "450x300", "200x300"])
    p.add_argument("--dtype", default="bfloat16", choices=["bfloat16", "float32"])
    p.add_argument("--max-rows", type=int, default=700)
    p.add_argument("--reference-rows", type=int, default=5000)
    args = p.parse_args()
    torch.set_num_threads(1)
    dtype = getattr(torch, args.dtype)
    for shape in args.shapes:
        n_in, n_out = (int(n) for n in shape.lower().split("x"))
        counts = differing_row_counts(n_in, n_out, dtype, args.max_rows, args.reference_rows)
        found = ", ".join(f"{a}-{b}" for a, b in as_ranges(counts))
        where = f"in calls of {found} rows" if found else "in no call"
        print(
            f"{args.dtype} {n_in} -> {n_out}: rows differ from a {args.reference_rows}-row "
            f"call {where} (1-{args.max_rows} rows tried)"
        )


if __name__ == "__main__":
    main()
