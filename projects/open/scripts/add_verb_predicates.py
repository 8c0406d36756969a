"""Make every verb a predicate: each token tagged VB* that has no PropBank frame gets an
empty one (its V alone), so that senna_srl learns to give such verbs (mostly auxiliaries,
which propbank-ewt's verbal view leaves out) no arguments, as it must at run time, where
every verb the tagger finds is a predicate.

    python scripts/add_verb_predicates.py INPUT.spacy OUTPUT.spacy
"""

from __future__ import annotations

import argparse
from pathlib import Path

from spacy.tokens import DocBin, Span
from spacy.vocab import Vocab

PREDICATES = "srl_predicates"


def add_verb_predicates(source: Path, output: Path) -> None:
    vocab = Vocab()
    doc_bin = DocBin(store_user_data=True)
    n_added = n_frames = 0
    for doc in DocBin().from_disk(source).get_docs(vocab):
        if PREDICATES not in doc.spans:
            raise SystemExit(f"✘ {source}: a doc has no doc.spans['{PREDICATES}']")
        framed = {span.start for span in doc.spans[PREDICATES]}
        n_frames += len(framed)
        verbs = [t.i for t in doc if t.tag_.startswith("VB") and t.i not in framed]
        if verbs:
            spans = list(doc.spans[PREDICATES]) + [Span(doc, i, i + 1, label="-") for i in verbs]
            doc.spans[PREDICATES] = sorted(spans, key=lambda span: span.start)
            for i in verbs:
                doc.spans[f"srl:{i}"] = [Span(doc, i, i + 1, label="V")]
            n_added += len(verbs)
        doc_bin.add(doc)
    output.parent.mkdir(parents=True, exist_ok=True)
    doc_bin.to_disk(output)
    print(
        f"✔ {n_frames} PropBank frames and {n_added} empty ones (verbs without a frame): {output}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("source", type=Path)
    parser.add_argument("output", type=Path)
    args = parser.parse_args()
    add_verb_predicates(args.source, args.output)


if __name__ == "__main__":
    main()
