"""Whether two spacy-senna versions label the same: every annotation of a pipeline, then a
comparison of two such files.

usage: python benchmarks/accuracy/same_outputs.py dump PIPELINE TEXTS.txt OUTPUT.json
           [--batch-size 256] [--enable senna_parser] [--single]
       python benchmarks/accuracy/same_outputs.py compare A.json B.json

`dump` pipes the texts (one per line) through the pipeline and writes, per doc, the SHA-1
of `doc.to_bytes()`, every token's tag, `doc.ents` and every span group with its
probabilities (`attrs["scores"]`, read after labelling); `--single` adds the SHA-1 of each
text labelled alone (`nlp(text)`). Run it once with each version (e.g. an older checkout
installed in its own virtual environment; PYTHONHASHSEED=0 for both), then `compare`
prints how many docs are byte-identical, whether the labels are identical and the largest
difference between the probabilities.
"""

import argparse
import hashlib
import json
import os
import sys
from pathlib import Path
from typing import Any, Dict, List

import spacy
import torch


def _digest(doc) -> str:
    return hashlib.sha1(doc.to_bytes()).hexdigest()


def _record(doc) -> Dict[str, Any]:
    """A doc's SHA-1 (taken before its probabilities are read), tags, entities and span
    groups with their probabilities."""
    digest = _digest(doc)
    groups = {}
    for key, group in doc.spans.items():
        scores = group.attrs.get("scores")
        spans = [[s.start, s.end, s.label_] for s in group]
        groups[key] = [spans, None if scores is None else [float(x) for x in scores]]
    return {
        "bytes": digest,
        "tags": [t.tag_ for t in doc],
        "ents": [[e.start, e.end, e.label_] for e in doc.ents],
        "groups": groups,
    }


def dump(
    pipeline: str, texts: Path, output: Path, batch_size: int, enable: List[str], single: bool
) -> None:
    torch.set_num_threads(1)
    nlp = spacy.load(pipeline)
    for name in enable:
        nlp.enable_pipe(name)
    lines = [line.rstrip("\n") for line in texts.open(encoding="utf8") if line.strip()]
    docs = [_record(doc) for doc in nlp.pipe(lines, batch_size=batch_size)]
    if single:
        for record, line in zip(docs, lines):
            record["single"] = _record(nlp(line))
    output.write_text(json.dumps(docs), encoding="utf8")


def _compare_records(pairs: List[tuple]) -> Dict[str, Any]:
    same, identical, largest, count = True, 0, 0.0, 0
    for a, b in pairs:
        identical += a["bytes"] == b["bytes"]
        spans_a = {key: value[0] for key, value in a["groups"].items()}
        spans_b = {key: value[0] for key, value in b["groups"].items()}
        same = same and a["tags"] == b["tags"] and a["ents"] == b["ents"] and spans_a == spans_b
        for key, (_, scores) in a["groups"].items():
            other = b["groups"].get(key, [None, None])[1]
            if scores is None or other is None:
                continue
            count += len(scores)
            largest = max([largest] + [abs(x - y) for x, y in zip(scores, other)])
    return {"identical_bytes": identical, "same_labels": same, "scores": count, "largest": largest}


def compare(first: List[Dict[str, Any]], second: List[Dict[str, Any]]) -> Dict[str, Any]:
    """How many docs are byte-identical, whether the labels are identical and the
    probabilities' largest difference: piped, and (`single`) each text labelled alone
    where both dumps have it."""
    result = {"docs": len(first), **_compare_records(list(zip(first, second)))}
    result["same_labels"] = result["same_labels"] and len(first) == len(second)
    alone = [
        (a["single"], b["single"]) for a, b in zip(first, second) if "single" in a and "single" in b
    ]
    result["single"] = _compare_records(alone) if alone else None
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    dumping = commands.add_parser("dump")
    dumping.add_argument("pipeline")
    dumping.add_argument("texts", type=Path)
    dumping.add_argument("output", type=Path)
    dumping.add_argument("--batch-size", type=int, default=256)
    dumping.add_argument("--enable", action="append", default=[], help="a disabled component")
    dumping.add_argument("--single", action="store_true", help="also label each text alone")
    comparing = commands.add_parser("compare")
    comparing.add_argument("first", type=Path)
    comparing.add_argument("second", type=Path)
    args = parser.parse_args()
    if args.command == "dump":
        if not os.environ.get("PYTHONHASHSEED", "random").isdigit():
            print(
                "same_outputs.py: PYTHONHASHSEED is not fixed, so doc.to_bytes() differs from "
                "run to run and the byte-identical counts will not match; set "
                "PYTHONHASHSEED=0 for every dump (labels and probabilities compare either way)",
                file=sys.stderr,
            )
        dump(args.pipeline, args.texts, args.output, args.batch_size, args.enable, args.single)
        return
    result = compare(*(json.loads(p.read_text(encoding="utf8")) for p in (args.first, args.second)))
    for name, part in (("piped", result), ("alone", result["single"])):
        if part is not None:
            print(
                f"{name}: {result['docs']} docs, {part['identical_bytes']} byte-identical, "
                f"labels identical: {part['same_labels']}; {part['scores']} probabilities, "
                f"largest difference {part['largest']:.2e}"
            )


if __name__ == "__main__":
    main()
