"""Concatenate DocBins into one: `python scripts/concat_docbins.py OUTPUT.spacy INPUT.spacy...`."""

from __future__ import annotations

import sys
from pathlib import Path

from spacy.tokens import DocBin


def main(output: Path, inputs: list[Path]) -> None:
    merged = DocBin(store_user_data=True)
    for path in inputs:
        merged.merge(DocBin(store_user_data=True).from_disk(path))
    output.parent.mkdir(parents=True, exist_ok=True)
    merged.to_disk(output)
    print(f"✔ {len(merged)} docs from {len(inputs)} files: {output}")


if __name__ == "__main__":
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    main(Path(sys.argv[1]), [Path(p) for p in sys.argv[2:]])
