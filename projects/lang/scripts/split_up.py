"""Universal PropBank's sentences re-split by a treebank's current split: each UP sentence
(its `ref=` id is a UD sent_id) goes to the split whose CoNLL-U file holds that sent_id, so
no SRL sentence of the treebank's dev or test is trained on.

    python scripts/split_up.py OUT_DIR --up UP... --train T.conllu --dev D.conllu --test E.conllu

Writes OUTPUT_DIR/{train,dev,test}.spacy and prints the counts; a UP sentence in none of the
splits is named and left out (the UP files are older than the treebank's current release).
"""

from __future__ import annotations

import argparse
from pathlib import Path

from spacy.tokens import DocBin
from spacy.vocab import Vocab

from spacy_senna.corpora.converters.ud import read_ud_sentences
from spacy_senna.corpora.converters.up import read_up, split_by_sent_id


def split_up(output_dir: Path, up: list[Path], splits: dict[str, Path]) -> None:
    """Write one DocBin per split of the UP sentences whose ids the split's file holds."""
    ids = {name: {s.sent_id for s in read_ud_sentences(path)} for name, path in splits.items()}
    vocab = Vocab()
    docs = (doc for path in up for doc in read_up(path, vocab))
    placed, unplaced = split_by_sent_id(docs, ids)
    output_dir.mkdir(parents=True, exist_ok=True)
    for name, split_docs in placed.items():
        doc_bin = DocBin(docs=split_docs, store_user_data=True)
        doc_bin.to_disk(output_dir / f"{name}.spacy")
        n_predicates = sum(len(doc.spans["srl_predicates"]) for doc in split_docs)
        print(f"✔ {name}: {len(split_docs)} sentences, {n_predicates} predicates")
    if unplaced:
        shown = ", ".join(unplaced[:10]) + (", ..." if len(unplaced) > 10 else "")
        print(f"⚠ {len(unplaced)} UP sentences in no split, left out: {shown}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("output_dir", type=Path)
    parser.add_argument("--up", type=Path, nargs="*", default=[], help="UP files (none: no SRL)")
    parser.add_argument("--data-dir", type=Path, default=Path("."), help="base of relative --up")
    parser.add_argument("--train", type=Path, required=True)
    parser.add_argument("--dev", type=Path, required=True)
    parser.add_argument("--test", type=Path, required=True)
    args = parser.parse_args()
    if not args.up:
        print("ℹ no Universal PropBank files given: no SRL data for this language")
        return
    up = [path if path.is_absolute() else args.data_dir / path for path in args.up]
    split_up(args.output_dir, up, {"train": args.train, "dev": args.dev, "test": args.test})


if __name__ == "__main__":
    main()
