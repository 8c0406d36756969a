"""Readers turning corpus formats into spaCy Docs, one per sentence: the benchmark formats
(paper §1, Table 1) and the openly licensed sets.

Every reader streams its file (plain or gzip), and raises ValueError naming the file and
the 1-based line number on malformed input. See the dataset READMEs under ../shared/data.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

from spacy.tokens import Doc
from spacy.vocab import Vocab

from .benchmark import (
    level0_segments,
    read_conll2000,
    read_conll2003,
    read_conll2005,
    read_conllu,
    read_wsj_pos,
    read_wsj_pt0,
)
from .open_data import UNER_TYPES, read_btc, read_gum_open, read_propbank_ewt, read_uner
from .rows import DOCUMENT_KEY, SENT_ID_KEY
from .trees import read_ewt_trees, read_ptb_trees
from .ud import MULTIWORD_KEY, read_ud, read_ud_xpos
from .up import read_up

CONVERTERS: dict[str, Callable[[Path, Vocab], Iterator[Doc]]] = {
    "wsj-pos": read_wsj_pos,
    "conllu": read_conllu,
    "conll2000": read_conll2000,
    "conll2003": read_conll2003,
    "wsj-pt0": read_wsj_pt0,
    "conll2005": read_conll2005,
    "propbank-ewt": read_propbank_ewt,
    "uner": read_uner,
    "gum-open": read_gum_open,
    "btc": read_btc,
    "ptb-trees": read_ptb_trees,
    "ewt-trees": read_ewt_trees,
    "ud": read_ud,
    "ud-xpos": read_ud_xpos,
    "up": read_up,
}

__all__ = [
    "CONVERTERS",
    "DOCUMENT_KEY",
    "MULTIWORD_KEY",
    "SENT_ID_KEY",
    "UNER_TYPES",
    "level0_segments",
    "read_btc",
    "read_conll2000",
    "read_conll2003",
    "read_conll2005",
    "read_conllu",
    "read_ewt_trees",
    "read_gum_open",
    "read_propbank_ewt",
    "read_ptb_trees",
    "read_ud",
    "read_ud_xpos",
    "read_uner",
    "read_up",
    "read_wsj_pos",
    "read_wsj_pt0",
]
