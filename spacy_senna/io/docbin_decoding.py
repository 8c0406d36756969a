"""Docs out of a DocBin without a registry scan per doc.

Each `srsly.msgpack_loads` asks catalogue for every registered msgpack decoder, and
catalogue answers by scanning the installed packages' entry points and its whole registry
(spaCy's thousands of functions): about 1.5 ms a call. `DocBin.get_docs` calls it once per
doc and once per span group, so that scan is 95% of its time: 2.7 s for WSJ 22's 1,700
trees, a minute per pass over WSJ 02-21. `get_docs` here answers those lookups from one
scan made when the reading starts.
"""

import contextlib
from typing import Dict, Iterator

from spacy.tokens import Doc, DocBin
from spacy.vocab import Vocab
from srsly import msgpack_decoders


def get_docs(docbin: DocBin, vocab: Vocab) -> Iterator[Doc]:
    """`docbin.get_docs(vocab)`, with srsly's msgpack decoders looked up once: the lookup
    is answered from that one scan only while a doc is being decoded."""
    decoders = msgpack_decoders.get_all()
    docs = docbin.get_docs(vocab)
    while True:
        with _decoders_answered_by(decoders):
            doc = next(docs, None)
        if doc is None:
            return
        yield doc


@contextlib.contextmanager
def _decoders_answered_by(decoders: Dict) -> Iterator[None]:
    """Within the block, `msgpack_decoders.get_all()` returns `decoders`."""
    previous = msgpack_decoders.__dict__.get("get_all")
    msgpack_decoders.get_all = lambda: decoders
    try:
        yield
    finally:
        if previous is None:
            del msgpack_decoders.get_all
        else:
            msgpack_decoders.get_all = previous
