"""One DocBin of a UD treebank's sentences in syntactic words, with UPOS (or the coarse
XPOS) as `tag_`, lemmas, morphology, the tree, chunks derived from it and, given a
Universal NER file of the same sentences, their entities.

    python scripts/join_ud.py TREEBANK.conllu OUTPUT.spacy [--uner UNER.iob2] [--tag upos|xpos]
    python scripts/join_ud.py TB.conllu OUT.spacy --data-dir DIR --uner-prefix PREFIX --split dev

A treebank without the tag asked for (no XPOS in any word) stops with an error saying so. A
UNER sentence whose words differ from the treebank's, or a UNER file with more or fewer
sentences, stops the conversion with an error naming it.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from spacy.tokens import DocBin
from spacy.vocab import Vocab

from spacy_senna.corpora.converters.ud import join_uner, read_ud_sentences, sentence_doc


def join(treebank: Path, output: Path, uner: Path | None, tag: str) -> None:
    """Write OUTPUT from the treebank (and UNER's entities where given)."""
    vocab = Vocab()
    docs = (sentence_doc(vocab, s, tag) for s in read_ud_sentences(treebank))
    if uner is not None:
        docs = join_uner(docs, uner, vocab)
    else:
        print(f"ℹ no Universal NER file given for {treebank.name}: no entities")
    doc_bin = DocBin(store_user_data=True)
    n_ents = n_tagged = 0
    for doc in docs:
        n_ents += len(doc.ents)
        n_tagged += sum(bool(token.tag_) for token in doc)
        doc_bin.add(doc)
    if not n_tagged:
        raise SystemExit(
            f"✘ no word of {treebank} has a {tag.upper()}: this treebank cannot train a "
            f"--tag {tag} tagger (leave its steps out for this language)"
        )
    output.parent.mkdir(parents=True, exist_ok=True)
    doc_bin.to_disk(output)
    entities = f", {n_ents} entities from {uner.name}" if uner is not None else ""
    print(f"✔ {len(doc_bin)} sentences (tag_ = {tag}{entities}): {output}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("treebank", type=Path)
    parser.add_argument("output", type=Path)
    parser.add_argument("--uner", default="", help="Universal NER file ('' for none)")
    parser.add_argument(
        "--uner-prefix",
        default="",
        help="instead of --uner: a prefix, the file being PREFIX-SPLIT.iob2.gz under "
        "--data-dir ('' for none: the language has no Universal NER)",
    )
    parser.add_argument("--split", default="train", help="the split, for --uner-prefix")
    parser.add_argument("--data-dir", type=Path, default=Path("."), help="base of --uner-prefix")
    parser.add_argument("--tag", choices=("upos", "xpos"), default="upos")
    args = parser.parse_args()
    uner = Path(args.uner) if args.uner else None
    if args.uner_prefix:
        uner = args.data_dir / f"{args.uner_prefix}-{args.split}.iob2.gz"
    join(args.treebank, args.output, uner, args.tag)


if __name__ == "__main__":
    main()
