"""Print one table of the quickstart's dev scores and write it to metrics/summary.json.

    python scripts/summarize.py metrics training

Reads the `spacy evaluate` results in METRICS_DIR and, for the chunker with gold POS input
(which `spacy evaluate` cannot give it), the dev score `spacy train` stored in
TRAINING_DIR/chunker/model-best/meta.json.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Dict, List, Optional, Tuple

# (label, file under METRICS_DIR or TRAINING_DIR, key)
ROWS = [
    ("senna_tagger alone: POS accuracy", "metrics/tagger.json", "tag_acc"),
    (
        "senna_chunker alone, gold POS: chunk F1",
        "training/chunker/model-best/meta.json",
        "spans_chunks_f",
    ),
    ("senna_ner alone: entity F1", "metrics/ner.json", "ents_f"),
    ("pipeline: POS accuracy", "metrics/pipeline.json", "tag_acc"),
    ("pipeline, predicted POS: chunk F1", "metrics/pipeline.json", "spans_chunks_f"),
    ("pipeline: entity F1", "metrics/pipeline.json", "ents_f"),
    ("senna_srl alone, given predicates: argument F1", "metrics/srl.json", "srl_f"),
    (
        "pipeline, predicates from predicted verb tags: argument F1",
        "metrics/pipeline-srl.json",
        "srl_f",
    ),
]


def read_score(path: Path, key: str) -> Optional[float]:
    """The score `key` from a `spacy evaluate` JSON or a pipeline's meta.json."""
    if not path.is_file():
        return None
    data = json.loads(path.read_text(encoding="utf8"))
    value = data.get("performance", data).get(key)
    return None if value is None else float(value)


def summarize(metrics_dir: Path, training_dir: Path) -> List[Tuple[str, Optional[float]]]:
    """(label, score in [0, 1] or None) for each row of the table."""
    roots: Dict[str, Path] = {"metrics": metrics_dir, "training": training_dir}
    rows = []
    for label, rel, key in ROWS:
        root, _, rest = rel.partition("/")
        rows.append((label, read_score(roots[root] / rest, key)))
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("metrics_dir", type=Path)
    parser.add_argument("training_dir", type=Path)
    args = parser.parse_args()
    rows = summarize(args.metrics_dir, args.training_dir)
    width = max(len(label) for label, _ in rows)
    print("Dev scores on the generated demo corpus (not comparable to real benchmarks):")
    for label, score in rows:
        print(f"  {label:<{width}}  {'n/a' if score is None else f'{100 * score:6.2f}'}")
    out = args.metrics_dir / "summary.json"
    out.write_text(json.dumps(dict(rows), indent=2) + "\n", encoding="utf8")
    print(f"✔ Saved {out}")


if __name__ == "__main__":
    main()
