"""Constituency treebanks -> Docs, one per tree: the WSJ trees (one bracketed tree per
line, ../shared/data/wsj-trees) and the gold EWT trees of propbank-ewt (a CoNLL parse
column). Each Doc gets the tree's words, its tags as `tag_`, and its constituents as
`doc.spans["constituents"]`: empty elements (`-NONE-`) and the phrases left empty
removed, labels bare (`NP-SBJ-1` -> `NP`), the root wrapper (`( ...)`, TOP) left out.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from spacy.tokens import Doc, Span
from spacy.vocab import Vocab

from ...syntax.constituents import CONSTITUENTS_KEY
from ...syntax.trees import Tree, clean_tree, constituents, read_trees, tree_from_parse_bits
from .rows import SENT_ID_KEY, check_ids, commented_sentences, make_doc


def tree_doc(vocab: Vocab, tree: Tree) -> Doc | None:
    """A Doc of one tree (None when the tree holds no word but empty elements)."""
    tops = clean_tree(tree)
    if not tops:
        return None
    words = [w for top in tops for w in top.words]
    doc = make_doc(vocab, words, tags=[t for top in tops for t in top.tags])
    doc.spans[CONSTITUENTS_KEY] = [
        Span(doc, start, end, label=label) for label, start, end in constituents(tops)
    ]
    return doc


def read_ptb_trees(path: Path, vocab: Vocab) -> Iterator[Doc]:
    """One bracketed Penn Treebank tree per line (WSJ `.mrg` trees) -> Docs."""
    for tree in read_trees(path):
        doc = tree_doc(vocab, tree)
        if doc is not None:
            yield doc


#: propbank-ewt's full columns: ID FORM UD_XPOS PB_POS CHUNK PARSE ...
_FORM, _TREE_TAG, _PARSE = 1, 3, 5


def read_ewt_trees(path: Path, vocab: Vocab) -> Iterator[Doc]:
    """propbank-ewt's full files (`ID FORM UD_XPOS PB_POS CHUNK PARSE ...`, tab, `# sent_id`
    comments) -> Docs of the gold EWT trees (tags: the tree's, PB_POS);
    `user_data[SENT_ID_KEY]`."""
    for sent_id, rows in commented_sentences(path):
        for lineno, columns in rows:
            if len(columns) <= _PARSE or not all(columns[: _PARSE + 1]):
                raise ValueError(
                    f"{path}:{lineno}: expected at least 6 non-empty tab-separated columns "
                    f"(ID FORM UD_XPOS PB_POS CHUNK PARSE), found {len(columns)}"
                )
        check_ids(path, rows)
        columns = [c for _, c in rows]
        try:
            tree = tree_from_parse_bits(
                [c[_FORM] for c in columns],
                [c[_TREE_TAG] for c in columns],
                [c[_PARSE] for c in columns],
            )
        except ValueError as err:
            raise ValueError(f"{path}:{rows[0][0]}: {err}") from None
        doc = tree_doc(vocab, tree)
        if doc is not None:
            doc.user_data[SENT_ID_KEY] = sent_id
            yield doc
