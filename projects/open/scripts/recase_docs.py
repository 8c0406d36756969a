"""Add recased copies of a corpus' sentences: a share lowercased, a share uppercased.

    python scripts/recase_docs.py IN.spacy OUT.spacy --lower 0.25 --upper 0.25 [--seed 0]

OUT holds every doc of IN, then a lowercased copy of a random `--lower` share of them and
an uppercased copy of another `--upper` share, with the same tokens, spaces and entities
(tags and other annotations are not copied). For a recognizer that still finds names in
text written without capitals, or in capitals only (Mayhew et al. 2019).
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy
from spacy.attrs import ENT_IOB, ENT_TYPE
from spacy.tokens import Doc, DocBin
from spacy.vocab import Vocab


def recased(doc: Doc, case) -> Doc:
    """`doc`'s words in `case` (str.lower or str.upper), with its entities."""
    copy = Doc(
        doc.vocab, words=[case(t.text) for t in doc], spaces=[bool(t.whitespace_) for t in doc]
    )
    copy.from_array([ENT_IOB, ENT_TYPE], doc.to_array([ENT_IOB, ENT_TYPE]))
    return copy


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("input", type=Path)
    parser.add_argument("output", type=Path)
    parser.add_argument("--lower", type=float, default=0.25)
    parser.add_argument("--upper", type=float, default=0.25)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    if args.lower < 0 or args.upper < 0 or args.lower + args.upper > 1:
        parser.error("--lower and --upper must be shares that add up to at most 1")
    vocab = Vocab()
    docs = list(DocBin().from_disk(args.input).get_docs(vocab))
    order = numpy.random.default_rng(args.seed).permutation(len(docs))
    n_lower, n_upper = round(args.lower * len(docs)), round(args.upper * len(docs))
    lower = [recased(docs[i], str.lower) for i in sorted(order[:n_lower])]
    upper = [recased(docs[i], str.upper) for i in sorted(order[n_lower : n_lower + n_upper])]
    args.output.parent.mkdir(parents=True, exist_ok=True)
    DocBin(docs=docs + lower + upper, store_user_data=True).to_disk(args.output)
    copies = f"{len(lower)} lowercased and {len(upper)} uppercased copies"
    print(f"{len(docs)} docs, {copies} -> {args.output}")


if __name__ == "__main__":
    main()
