"""`build-gazetteer CORPUS.spacy OUTPUT.lst`: a `TYPE words` gazetteer from training entities."""

import argparse
from collections import Counter, defaultdict
from pathlib import Path

from spacy.vocab import Vocab

from ..features.gazetteer import write_gazetteer
from .docbins import read_docs


def build_gazetteer(corpus: Path, output: Path, min_count: int = 1) -> int:
    """Collect every entity text (with its type) seen at least `min_count` times."""
    counts: Counter = Counter()
    for doc in read_docs(corpus, Vocab()):
        counts.update((ent.label_, " ".join(t.text for t in ent)) for ent in doc.ents)
    entries = defaultdict(set)
    for (label, text), count in counts.items():
        if count >= min_count:
            entries[label].add(text)
    if not entries:
        raise ValueError(f"{corpus}: no entities with at least {min_count} occurrence(s)")
    n = write_gazetteer(entries, output)
    print(f"✔ Wrote {n} entries ({', '.join(sorted(entries))}) to {output}")
    return n


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "build-gazetteer", help="build a NER gazetteer file from a corpus' entities"
    )
    parser.add_argument("corpus", type=Path, help=".spacy file with doc.ents")
    parser.add_argument("output", type=Path, help="output file (TYPE word word ... lines)")
    parser.add_argument("--min-count", type=int, default=1, help="minimum occurrences")
    parser.set_defaults(func=lambda a: build_gazetteer(a.corpus, a.output, a.min_count))
