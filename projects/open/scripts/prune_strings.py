"""Keep in a saved pipeline's vocab only the strings its components hold.

    python scripts/prune_strings.py PIPELINE_DIR

A saved pipeline's `vocab/strings.json` keeps every string its training read (146,947 in
en_senna's seventh build: 2.1 MB of its 25 MiB budget). Labelling needs none of them: a
text adds its strings when it is tokenized, and the components add their labels,
patterns and tables' strings when they load. This rewrites the file with those the
components add on loading, and nothing else of the pipeline.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import spacy


def prune_strings(path: Path) -> tuple[int, int]:
    """Rewrite `path`'s vocab/strings.json with the strings its components hold; the
    number of strings (before, after)."""
    strings = path / "vocab" / "strings.json"
    before = len(json.loads(strings.read_text(encoding="utf8")))
    nlp = spacy.load(path, exclude=["vocab"])  # the components' own strings only
    nlp.vocab.strings.to_disk(strings)
    return before, len(nlp.vocab.strings)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("pipeline", type=Path)
    args = parser.parse_args()
    before, after = prune_strings(args.pipeline)
    print(f"✔ {args.pipeline}: {after:,} strings kept of {before:,}")


if __name__ == "__main__":
    main()
