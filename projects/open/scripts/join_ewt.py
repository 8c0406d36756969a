"""Join propbank-ewt (PTB POS, chunks, SRL) and Universal NER (entities) into one Doc per
EWT sentence, matched by UD sent_id, so every component can train on the same sentences.

    python scripts/join_ewt.py PROPBANK.conll05-verbal.gz UNER.iob2.gz OUTPUT.spacy

A sentence that is in one file only, or whose words differ between the two, is left out
and counted.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from spacy.tokens import DocBin, Span
from spacy.vocab import Vocab

from spacy_senna.corpora.converters import SENT_ID_KEY, read_propbank_ewt, read_uner


def join(propbank: Path, uner: Path, output: Path) -> None:
    """Write the sentences of `propbank` that `uner` also has, with its entities added."""
    vocab = Vocab()
    entities = {doc.user_data[SENT_ID_KEY]: doc for doc in read_uner(uner, vocab)}
    doc_bin = DocBin(store_user_data=True)
    n_missing = n_mismatched = 0
    for doc in read_propbank_ewt(propbank, vocab):
        ner_doc = entities.get(doc.user_data[SENT_ID_KEY])
        if ner_doc is None:
            n_missing += 1
            continue
        if [t.text for t in ner_doc] != [t.text for t in doc]:
            n_mismatched += 1
            continue
        doc.ents = [Span(doc, e.start, e.end, label=e.label_) for e in ner_doc.ents]
        doc_bin.add(doc)
    output.parent.mkdir(parents=True, exist_ok=True)
    doc_bin.to_disk(output)
    print(
        f"✔ {len(doc_bin)} sentences with POS, chunks, SRL and entities: {output} "
        f"({n_missing} not in {uner.name}, {n_mismatched} with other words there)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("propbank", type=Path)
    parser.add_argument("uner", type=Path)
    parser.add_argument("output", type=Path)
    args = parser.parse_args()
    join(args.propbank, args.uner, args.output)


if __name__ == "__main__":
    main()
