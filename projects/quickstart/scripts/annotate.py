"""Annotate an example text with the assembled pipeline: tags, chunks, entities and SRL frames.

    python scripts/annotate.py training/pipeline [--text "..."] [--output FILE]

The senna components label a Doc as one sequence, as SENNA labels one sentence at a time, so
the text is split into sentences first (spaCy's rule-based sentencizer) and each sentence is
annotated as its own Doc.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import List, Optional

import spacy
from spacy.tokens import Doc

EXAMPLE = (
    "Anna Kowalski, the chairman of Brenford Holdings, said on Monday that the company will "
    "open a new factory in Lyon. Shares of Pacific Motors rose 4.5 percent to $30 after the "
    "German government approved the deal. England beat Poland 3-2 in the World Cup, Mr. Okoro "
    "said."
)


def sentences(text: str) -> List[str]:
    """Split `text` into sentence strings with spaCy's sentencizer."""
    splitter = spacy.blank("en")
    splitter.add_pipe("sentencizer")
    return [sent.text for sent in splitter(text).sents]


def describe(doc: Doc) -> List[str]:
    """Lines showing one annotated sentence."""
    lines = [f"» {doc.text}", "  tokens: " + " ".join(f"{t.text}/{t.tag_}" for t in doc)]
    chunks = doc.spans["chunks"]
    scores = chunks.attrs.get("scores", [None] * len(chunks))
    lines.append(
        "  chunks: " + " ".join(f"[{s.label_} {s.text}]{_score(p)}" for s, p in zip(chunks, scores))
    )
    ents = doc.spans["senna_ents"] if "senna_ents" in doc.spans else doc.ents
    scores = getattr(ents, "attrs", {}).get("scores", [None] * len(ents))
    lines.append(
        "  entities: "
        + (", ".join(f"{e.text} ({e.label_}{_score(p)})" for e, p in zip(ents, scores)) or "-")
    )
    for predicate, arguments in doc._.srl_frames if doc.has_extension("srl_frames") else []:
        scores = arguments.attrs.get("scores", [None] * len(arguments))
        roles = " ".join(f"[{s.label_} {s.text}]{_score(p)}" for s, p in zip(arguments, scores))
        lines.append(f"  frame of '{predicate.text}': {roles or '-'}")
    return lines


def _score(p: Optional[float]) -> str:
    return "" if p is None else f" {float(p):.2f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("pipeline", type=Path, help="pipeline directory (or package name)")
    parser.add_argument("--text", default=EXAMPLE, help="text to annotate")
    parser.add_argument("--output", type=Path, default=None, help="also write the lines here")
    args = parser.parse_args()
    nlp = spacy.load(args.pipeline)
    print(f"Pipeline: {' → '.join(nlp.pipe_names)}")
    lines: List[str] = []
    for doc in nlp.pipe(sentences(args.text)):
        lines += describe(doc) + [""]
    print("\n".join(lines))
    if args.output:
        args.output.parent.mkdir(parents=True, exist_ok=True)
        args.output.write_text("\n".join(lines), encoding="utf8")


if __name__ == "__main__":
    main()
