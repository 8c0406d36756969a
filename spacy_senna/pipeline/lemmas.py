"""senna_lemmatizer: spaCy's English lemmatizer (same config, tables, serialization and
outputs) that lemmatizes a whole batch of docs with arrays.

It adds a "treebank" mode, for any language: lemmas from tables learnt from a treebank
(`lemma_exc`, `lemma_suffixes`, `lemma_cased`; spacy_senna/corpora/lemma_tables.py), which
`<lang>_senna` pipelines use.

In "rule" and "treebank" modes a token's lemma depends only on its (ORTH, POS, MORPH) and the
tables, so this subclass reads those columns with `Doc.to_array`, resolves each distinct key
once (with `lemmatize` on one token that has it, then from a bounded cache across calls) and
writes LEMMA back with `Doc.from_array`. Other modes run spaCy's per-token loop.
"""

from __future__ import annotations

import warnings
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator, Optional, Union

import numpy as np
from spacy.attrs import LEMMA, MORPH, ORTH, POS
from spacy.errors import Errors, Warnings
from spacy.lang.en.lemmatizer import EnglishLemmatizer
from spacy.language import Language
from spacy.lookups import Lookups
from spacy.tokens import Doc, Token
from spacy.util import SimpleFrozenList
from spacy.vocab import Vocab
from thinc.api import Model

from ..corpora.lemma_tables import treebank_lemma
from .batched import annotate_doc, annotate_stream
from .rule_lemmas import IndexSets, rule_lemmas

COLUMNS = [ORTH, POS, MORPH, LEMMA]
#: the most tokens a doc labelled alone may have to be lemmatized token by token from the
#: known keys (`_lemmatize_known`); a batch, or a longer doc, takes the sorted search
SHORT_DOC = 256
#: the modes whose lemmas are resolved once per distinct key, a batch at a time
BATCHED_MODES = ("rule", "treebank")
#: odd multipliers that mix (ORTH, POS, MORPH) into one 64-bit number
MIX = np.array([0x9E3779B97F4A7C15, 0xC2B2AE3D27D4EB4F, 0x165667B19E3779F9], dtype=np.uint64)


@Language.factory(
    "senna_lemmatizer",
    assigns=["token.lemma"],
    default_config={
        "model": None,
        "mode": "rule",
        "overwrite": False,
        "scorer": {"@scorers": "spacy.lemmatizer_scorer.v1"},
    },
    default_score_weights={"lemma_acc": 1.0},
)
def make_senna_lemmatizer(
    nlp: Language,
    model: Optional[Model],
    name: str,
    mode: str,
    overwrite: bool,
    scorer: Optional[Callable],
) -> "SennaLemmatizer":
    """spaCy's English `lemmatizer`, applied with arrays in "rule" mode; "treebank" mode reads
    tables learnt from a treebank (any language)."""
    return SennaLemmatizer(nlp.vocab, model, name, mode=mode, overwrite=overwrite, scorer=scorer)


class SennaLemmatizer(EnglishLemmatizer):
    """An EnglishLemmatizer that lemmatizes batches of docs by distinct (ORTH, POS, MORPH),
    with a "treebank" mode for tables learnt from a treebank."""

    #: the most keys cached; the cache starts over when it would hold more
    max_cached: int = 200_000

    def __init__(self, vocab: Vocab, model: Optional[Model], name: str = "lemmatizer", **kwargs):
        super().__init__(vocab, model, name, **kwargs)
        self.clear_cache()

    @classmethod
    def get_lookups_config(cls, mode: str) -> tuple[list[str], list[str]]:
        """The required and optional tables of `mode`."""
        if mode == "treebank":
            return ["lemma_exc", "lemma_suffixes"], ["lemma_cased"]
        return super().get_lookups_config(mode)

    def rule_lemmatize(self, token: Token) -> list[str]:
        """spaCy's rule lemmas of `token`, its word index read as sets (rule_lemmas.py)."""
        return rule_lemmas(self, token, self._index_sets)

    def treebank_lemmatize(self, token: Token) -> list[str]:
        """The lemma of `token` from tables learnt from a treebank (see lemma_tables.py)."""
        pos = token.pos_.lower()
        if pos in ("", "eol", "space"):
            if pos == "":
                warnings.warn(Warnings.W108)
            return [token.text.lower()]
        return [treebank_lemma(token.text, pos, self.lookups)]

    def clear_cache(self) -> None:
        """Forget the cached lemmas (the tables changed)."""
        # sorted by a 64-bit mix of the key; the key itself is compared on every hit
        self._mixed = np.zeros(0, dtype=np.uint64)
        self._keys = np.zeros((0, 3), dtype=np.uint64)
        self._hashes = np.zeros(0, dtype=np.uint64)
        self._texts = np.zeros(0, dtype=object)
        # lemma strings added to the StringStore inside a memory zone, to add again outside
        self._transient = np.zeros(0, dtype=bool)
        # (ORTH, POS, MORPH) -> lemma hash of the cached keys whose strings are kept
        # outside any memory zone: a short doc's tokens are looked up one by one
        self._lemma_of: dict = {}
        self._index_sets: IndexSets = {}
        self.cache.clear()

    def __call__(self, doc: Doc) -> Doc:
        """Set the lemmas of `doc`'s tokens."""
        if self.mode not in BATCHED_MODES:
            return super().__call__(doc)
        if not self._validated:
            self._validate_tables(Errors.E1004)
        return annotate_doc(self, self._lemmatize_docs, doc)

    def pipe(self, stream: Iterable[Doc], *, batch_size: int = 128) -> Iterator[Doc]:
        """Lemmatize the docs of `stream` a batch at a time."""
        if self.mode not in BATCHED_MODES:
            yield from super().pipe(stream, batch_size=batch_size)
            return
        if not self._validated:
            self._validate_tables(Errors.E1004)
        yield from annotate_stream(self, self._lemmatize_docs, stream, batch_size)

    def _lemmatize_docs(self, docs: list[Doc]) -> None:
        """Set the lemmas of the tokens of `docs` (those without one, unless overwrite)."""
        docs = [doc for doc in docs if len(doc)]
        if not docs:
            return
        arrays = [doc.to_array(COLUMNS) for doc in docs]
        if len(docs) == 1 and self._lemmatize_known(docs[0], arrays[0]):
            return
        data = np.concatenate(arrays) if len(arrays) > 1 else arrays[0]
        todo = np.arange(len(data)) if self.overwrite else np.flatnonzero(data[:, 3] == 0)
        if not todo.size:
            return
        keys = data[todo, :3]
        if not keys[:, 1].all():
            warnings.warn(Warnings.W108)
        mixed, first, inverse = np.unique(_mix(keys), return_index=True, return_inverse=True)
        starts = np.cumsum([0, *map(len, arrays)])
        slots = self._find(mixed, keys[first])
        hits = slots >= 0
        hashes = np.zeros(len(mixed), dtype=np.uint64)
        hashes[hits] = self._hashes[slots[hits]]
        self._keep_strings(slots[hits])
        missing = np.flatnonzero(~hits)
        if missing.size:
            rows = todo[first[missing]]
            hashes[missing] = self._add(mixed[missing], keys[first[missing]], docs, starts, rows)
        inverse = inverse.reshape(-1)
        lemmas = np.ascontiguousarray(data[:, 3])
        lemmas[todo] = hashes[inverse]
        # tokens whose key only shares its mix with the key that stood for them
        odd = todo[(keys != keys[first][inverse]).any(axis=1)]
        if odd.size:
            add = self.vocab.strings.add
            lemmas[odd] = [add(text) for text in self._lemmatize_rows(docs, starts, odd)]
        bounds = starts.tolist()
        for doc, start, end in zip(docs, bounds[:-1], bounds[1:]):
            doc.from_array([LEMMA], lemmas[start:end])

    def _lemmatize_known(self, doc: Doc, data: np.ndarray) -> bool:
        """Set one doc's lemmas from `_lemma_of` (a text labelled alone): a dict lookup per
        token, where the batch's sorted search costs about 0.1 ms whatever the doc's
        length. A new key is lemmatized here and joins the dict only (a batch that meets
        it lemmatizes it again for the sorted cache): inserting into the sorted cache
        copies all of it, each text with a new word. False, changing nothing, where the
        batch path is needed: a token without POS (it warns), inside a memory zone."""
        if len(data) > SHORT_DOC or self.vocab.in_memory_zone:
            return False
        lemma_of = self._lemma_of
        lemmas, new = [], []
        for i, (orth, pos, morph, lemma) in enumerate(data.tolist()):
            if lemma and not self.overwrite:
                lemmas.append(lemma)
                continue
            if not pos:
                return False
            known = lemma_of.get((orth, pos, morph))
            if known is None:
                new.append(i)
            lemmas.append(known)
        if new:
            if len(lemma_of) + len(new) > self.max_cached:
                self.clear_cache()  # the batch path's bound, for the dict's keys
                lemma_of = self._lemma_of
            add = self.vocab.strings.add
            texts = self._lemmatize_rows([doc], np.zeros(1, dtype=np.int64), np.array(new))
            for i, text in zip(new, texts):
                lemmas[i] = lemma_of[tuple(data[i, :3].tolist())] = add(text)
        doc.from_array([LEMMA], np.array(lemmas, dtype=np.uint64))
        return True

    def _find(self, mixed: np.ndarray, keys: np.ndarray) -> np.ndarray:
        """The cache slots of the distinct sorted `mixed` with their `keys`, -1 if none."""
        slots = np.searchsorted(self._mixed, mixed)
        found = slots < len(self._mixed)
        found[found] = self._mixed[slots[found]] == mixed[found]
        found[found] = (self._keys[slots[found]] == keys[found]).all(axis=1)
        return np.where(found, slots, -1)

    def _add(
        self,
        mixed: np.ndarray,
        keys: np.ndarray,
        docs: list[Doc],
        starts: np.ndarray,
        rows: np.ndarray,
    ) -> np.ndarray:
        """Lemmatize one token of each missing key (row of the batch), cache the lemmas and
        return their string hashes."""
        if len(self._mixed) + len(mixed) > self.max_cached:
            self.clear_cache()
        texts = self._lemmatize_rows(docs, starts, rows)
        add = self.vocab.strings.add
        hashes = np.array([add(text) for text in texts], dtype=np.uint64)
        # a key whose mix another cached key has is not cached: lemmatized every time
        new = np.searchsorted(self._mixed, mixed) == np.searchsorted(self._mixed, mixed, "right")
        at = np.searchsorted(self._mixed, mixed[new])
        self._mixed = np.insert(self._mixed, at, mixed[new])
        self._keys = np.insert(self._keys, at, keys[new], axis=0)
        self._hashes = np.insert(self._hashes, at, hashes[new])
        self._texts = np.insert(self._texts, at, np.array(texts, dtype=object)[new])
        self._transient = np.insert(self._transient, at, self.vocab.in_memory_zone)
        if not self.vocab.in_memory_zone:
            self._know(keys[new], hashes[new])
        return hashes

    def _know(self, keys: np.ndarray, hashes: np.ndarray) -> None:
        """Add cached keys whose lemma strings outlive any memory zone to `_lemma_of`."""
        self._lemma_of.update(zip(map(tuple, keys.tolist()), hashes.tolist()))

    def _lemmatize_rows(self, docs: list[Doc], starts: np.ndarray, rows: np.ndarray) -> list[str]:
        """The parent's lemmas of the tokens in `rows` of the batch (`starts`: doc offsets)."""
        indices = (np.searchsorted(starts, rows, side="right") - 1).tolist()
        offsets = (rows - starts[indices]).tolist()
        return [self.lemmatize(docs[i][j])[0] for i, j in zip(indices, offsets)]

    def _keep_strings(self, slots: np.ndarray) -> None:
        """Add the lemma strings of `slots` to the StringStore where a memory zone may have
        dropped them (in a zone: all of them; outside: those first added in one)."""
        if self.vocab.in_memory_zone:
            used = slots
        else:
            used = slots[self._transient[slots]]
            self._transient[used] = False
            self._know(self._keys[used], self._hashes[used])
        add = self.vocab.strings.add
        for text in self._texts[used].tolist():
            add(text)

    def initialize(
        self,
        get_examples: Optional[Callable[[], Iterable[Any]]] = None,
        *,
        nlp: Optional[Language] = None,
        lookups: Optional[Lookups] = None,
    ) -> None:
        """Load the tables as the parent does (`lookups`, or spacy-lookups-data's for the
        language), forgetting cached lemmas."""
        self.clear_cache()
        super().initialize(get_examples, nlp=nlp, lookups=lookups)

    def from_disk(
        self, path: Union[str, Path], *, exclude: Iterable[str] = SimpleFrozenList()
    ) -> "SennaLemmatizer":
        """Load the tables from disk, forgetting cached lemmas."""
        self.clear_cache()
        return super().from_disk(path, exclude=exclude)

    def from_bytes(
        self, bytes_data: bytes, *, exclude: Iterable[str] = SimpleFrozenList()
    ) -> "SennaLemmatizer":
        """Load the tables from bytes, forgetting cached lemmas."""
        self.clear_cache()
        return super().from_bytes(bytes_data, exclude=exclude)


def _mix(keys: np.ndarray) -> np.ndarray:
    """A 64-bit mix of each (ORTH, POS, MORPH) row: equal keys, equal mixes."""
    with np.errstate(over="ignore"):
        products = keys * MIX
    return products[:, 0] ^ (products[:, 1] + (products[:, 2] >> np.uint64(7)))
