"""Join a treebank's sentence Docs into one Doc per document, for components that read a
whole document (`doc_context`).

    python scripts/join_documents.py corpus/tb/train.spacy corpus/tb-docs/train.spacy

A document is a run of consecutive sentences whose sent_id (kept by join_ud.py in
`user_data["spacy_senna.sent_id"]`) has the same part before its last "-" (Bosque's
`CF1-3` is sentence 3 of document CF1). Tags, lemmas, entities, span groups and sentence
starts are kept, the multiword tokens move to the document's offsets, and the sentences'
sent_ids are listed; a sentence without a sent_id is a document of its own, and how many
there were is said.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import spacy
from spacy.tokens import Doc, DocBin

from spacy_senna.corpora.converters.rows import SENT_ID_KEY
from spacy_senna.corpora.converters.ud import MULTIWORD_KEY

#: a joined document's sentences' sent_ids
SENT_IDS = "spacy_senna.sent_ids"


def document_id(doc: Doc) -> str | None:
    """The document a sentence belongs to, from its sent_id; None without one."""
    sent_id = doc.user_data.get(SENT_ID_KEY)
    if not sent_id or "-" not in sent_id:
        return None
    return sent_id.rsplit("-", 1)[0]


def join_documents(docs: list[Doc]) -> tuple[list[Doc], int]:
    """One Doc per run of sentences of the same document; and how many had no sent_id."""
    groups: list[list[Doc]] = []
    last = None
    missing = 0
    for doc in docs:
        key = document_id(doc)
        missing += key is None
        if key is None or key != last or not groups:
            groups.append([])
        groups[-1].append(doc)
        last = key
    return [_joined(group) for group in groups], missing


def _joined(group: list[Doc]) -> Doc:
    """One Doc of the sentences of `group`, their multiword tokens moved to its offsets and
    their sent_ids listed."""
    if len(group) == 1:
        return group[0]
    multiword, sent_ids, start = [], [], 0
    for doc in group:
        multiword.extend(
            [[s + start, e + start, form] for s, e, form in doc.user_data.get(MULTIWORD_KEY, [])]
        )
        sent_ids.append(doc.user_data.get(SENT_ID_KEY))
        start += len(doc)
        doc.user_data.clear()  # Doc.from_docs cannot merge it
    joined = Doc.from_docs(group)
    joined.user_data.update({MULTIWORD_KEY: multiword, SENT_IDS: sent_ids})
    return joined


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("input", type=Path)
    parser.add_argument("output", type=Path)
    args = parser.parse_args()
    nlp = spacy.blank("xx")
    docs = list(DocBin().from_disk(args.input).get_docs(nlp.vocab))
    joined, missing = join_documents(docs)
    args.output.parent.mkdir(parents=True, exist_ok=True)
    DocBin(store_user_data=True, docs=joined).to_disk(args.output)
    note = f"; {missing} sentences without a sent_id kept alone" if missing else ""
    print(f"✔ {len(docs)} sentences in {len(joined)} documents: {args.output}{note}")


if __name__ == "__main__":
    main()
