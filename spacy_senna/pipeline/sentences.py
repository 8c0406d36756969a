"""senna_sentencizer: spaCy's rule-based sentencizer (same rule, settings, serialization
and outputs) deciding a whole batch of docs with array operations.

spaCy's `sentencizer` walks every token in Python, one doc at a time; on en_senna that
cost as much as a tenth of its tagger, chunker and ner together. Its rule: after a token
in `punct_chars`, the next token that is neither punctuation nor in `punct_chars` starts
a sentence. Put another way, a "word" (such a token) starts a sentence when a
`punct_chars` token stands between it and the word before it in its doc (or the doc's
start), which a cumulative count over the batch's token columns decides at once.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Callable, Iterable, Iterator, List, Optional

import numpy as np
from spacy.attrs import IS_PUNCT, ORTH
from spacy.language import Language
from spacy.pipeline import Sentencizer
from spacy.strings import hash_string
from spacy.tokens import Doc

from .batched import annotate_stream


@Language.factory(
    "senna_sentencizer",
    assigns=["token.is_sent_start", "doc.sents"],
    default_config={
        "punct_chars": None,
        "overwrite": False,
        "scorer": {"@scorers": "spacy.senter_scorer.v1"},
    },
    default_score_weights={"sents_f": 1.0, "sents_p": 0.0, "sents_r": 0.0},
)
def make_senna_sentencizer(
    nlp: Language,
    name: str,
    punct_chars: Optional[List[str]],
    overwrite: bool,
    scorer: Optional[Callable],
) -> "SennaSentencizer":
    """spaCy's `sentencizer`, decided with arrays over batches of docs."""
    return SennaSentencizer(name, punct_chars=punct_chars, overwrite=overwrite, scorer=scorer)


class SennaSentencizer(Sentencizer):
    """A Sentencizer whose `predict` and `pipe` work on batches of docs as arrays."""

    def pipe(self, stream: Iterable[Doc], *, batch_size: int = 128) -> Iterator[Doc]:
        """Set the sentence starts of the docs of `stream`, a batch at a time."""
        return annotate_stream(self, self._annotate, stream, batch_size)

    def _annotate(self, docs: List[Doc]) -> None:
        self.set_annotations(docs, self.predict(docs))

    def predict(self, docs: Iterable[Doc]) -> List[List[bool]]:
        """Per doc, per token: whether it starts a sentence (as spaCy's Sentencizer)."""
        docs = list(docs)
        ids = _string_ids(frozenset(self.punct_chars))
        if len(docs) == 1 and len(docs[0]) <= SHORT_DOC:
            return [_starts_of_short_doc(docs[0].to_array([ORTH, IS_PUNCT]).tolist(), ids)]
        lengths = np.array([len(doc) for doc in docs], dtype=np.int64)
        if not lengths.sum():
            return [[] for _ in docs]
        columns = np.concatenate([doc.to_array([ORTH, IS_PUNCT]) for doc in docs if len(doc)])
        punct = np.fromiter(map(ids.__contains__, columns[:, 0].tolist()), bool, len(columns))
        word = (columns[:, 1] == 0) & ~punct
        ends = np.cumsum(lengths)
        doc_start = np.repeat(ends - lengths, lengths)
        positions = np.arange(len(word))
        # each token's latest word before it in its doc, or the position before the doc
        last_word = np.maximum.accumulate(np.where(word, positions, -1))
        before = np.concatenate([[-1], last_word[:-1]])
        before = np.maximum(before, doc_start - 1)
        counted = np.concatenate([[0], np.cumsum(punct)])  # counted[i]: punct before i
        starts = word & (counted[positions] > counted[before + 1])
        starts[doc_start] = True
        return [part.tolist() for part in np.split(starts, ends[:-1])]


#: one doc of at most this many tokens (`nlp(text)` on a short text) is decided token by
#: token: the array steps' fixed cost (about 40 us) is more than such a doc's loop
SHORT_DOC = 64


def _starts_of_short_doc(columns: List[List[int]], punct_ids: frozenset) -> List[bool]:
    """The rule above for one doc's (ORTH, IS_PUNCT) rows, one token at a time."""
    starts = []
    punct_since_word = False
    for orth, is_punct in columns:
        in_punct_chars = orth in punct_ids
        word = not is_punct and not in_punct_chars
        starts.append(not starts or (word and punct_since_word))
        if word:
            punct_since_word = False
        elif in_punct_chars:
            punct_since_word = True
    return starts


@lru_cache(maxsize=8)
def _string_ids(strings: frozenset) -> frozenset:
    """The ORTH ids (string hashes) of `strings` (a set: a short doc's tokens are looked
    up one by one faster than `numpy.isin` sorts)."""
    return frozenset(hash_string(s) for s in strings)
