"""The sequences a senna network scores, and their batched input tensors.

A sequence is a sentence (window network: POS, CHUNK, NER) or a (sentence, predicate)
row (SRL). A batch's sequences are laid end to end with padding rows between them
(`flatten_windows`), so one lookup and one convolution cover the whole batch.
"""

from contextlib import contextmanager
from contextvars import ContextVar
from typing import Dict, Iterator, List, NamedTuple, Optional, Sequence, Tuple

import numpy
import torch
from spacy.attrs import LOWER, SENT_START
from spacy.tokens import Doc
from thinc.api import Model

from ..features import Featurizer
from ..layers.window import flatten_windows


class Sequences(NamedTuple):
    """A batch's scores: one row per sequence (sentence), and where each came from."""

    emissions: torch.Tensor  # (n_sequences, T, n_tags)
    lengths: torch.Tensor  # (n_sequences,)
    bounds: List[List[Tuple[int, int]]]  # per doc: (start, end) token span of each sequence
    predicates: Optional[List[List[int]]] = None  # per doc: predicate token of each sequence


def sequence_bounds(doc: Doc) -> List[Tuple[int, int]]:
    """The sequences a doc is labelled as: its sentences when set, else the whole doc.

    SENNA tags sentence by sentence (windows pad at sentence edges; the CRF path starts
    and ends there), so a doc whose sentence boundaries are known is split on them.
    """
    n = len(doc)
    if not n:
        return []
    if "sents" in doc.user_hooks:
        return [(sent.start, sent.end) for sent in doc.sents]
    # Doc.sents, read from the SENT_START column at once (1 starts a sentence, -1 and 0
    # do not; no value after the first token: no boundaries), which is much faster
    starts = doc.to_array(SENT_START)[1:]
    if not numpy.count_nonzero(starts):
        return [(0, n)]
    edges = [0, *(numpy.flatnonzero(starts == 1) + 1).tolist(), n]
    return list(zip(edges[:-1], edges[1:]))


#: inside `sequence_bounds_kept`, the bounds read so far, by doc id (with the doc, so the
#: id stays its own); a context variable, so another thread's call neither sees nor ends it
_KEPT_BOUNDS: ContextVar[Optional[Dict[int, Tuple[Doc, List[Tuple[int, int]]]]]] = ContextVar(
    "senna_kept_sequence_bounds", default=None
)


@contextmanager
def sequence_bounds_kept() -> Iterator[None]:
    """Inside, `sequence_bounds_of` reads each doc's sentences once: for a component's
    labelling call, which batches the docs by their sentences and then featurizes them,
    and does not change them in between."""
    token = _KEPT_BOUNDS.set({})
    try:
        yield
    finally:
        _KEPT_BOUNDS.reset(token)


def sequence_bounds_of(docs: Sequence[Doc]) -> List[List[Tuple[int, int]]]:
    """`sequence_bounds` of every doc of a batch, their SENT_START columns read at once
    (once per doc inside `sequence_bounds_kept`)."""
    kept = _KEPT_BOUNDS.get()
    if kept is None:
        return _read_bounds(docs)
    missing = [doc for doc in docs if id(doc) not in kept]
    for doc, bounds in zip(missing, _read_bounds(missing)):
        kept[id(doc)] = (doc, bounds)
    return [kept[id(doc)][1] for doc in docs]


def _read_bounds(docs: Sequence[Doc]) -> List[List[Tuple[int, int]]]:
    if len(docs) == 1:  # one doc labelled at a time: no batch to segment
        return [sequence_bounds(docs[0])]
    plain = [_reads_sent_starts(doc) for doc in docs]
    segmented = iter(_segment([doc for doc, read in zip(docs, plain) if read]))
    return [next(segmented) if read else sequence_bounds(doc) for doc, read in zip(docs, plain)]


def _reads_sent_starts(doc: Doc) -> bool:
    return bool(len(doc)) and "sents" not in doc.user_hooks


def _segment(docs: Sequence[Doc]) -> List[List[Tuple[int, int]]]:
    """The sentences of non-empty docs (no `sents` hook) from their SENT_START columns."""
    if not docs:
        return []
    lengths = numpy.array([len(doc) for doc in docs])
    offsets = numpy.cumsum(lengths) - lengths
    starts = numpy.concatenate([doc.to_array(SENT_START).reshape(-1) for doc in docs]) == 1
    starts[offsets] = True  # a doc's first token starts its first sequence
    edges = numpy.flatnonzero(starts)
    ends = numpy.append(edges[1:], lengths.sum())  # each doc ends where the next one starts
    doc_of = numpy.searchsorted(offsets, edges, side="right") - 1
    pairs = list(zip((edges - offsets[doc_of]).tolist(), (ends - offsets[doc_of]).tolist()))
    cuts = numpy.cumsum(numpy.bincount(doc_of, minlength=len(docs))).tolist()
    return [pairs[start:end] for start, end in zip([0, *cuts[:-1]], cuts)]


def _sequence_ids(
    model: Model, docs: Sequence[Doc], train: bool
) -> Tuple[List[numpy.ndarray], List[List[Tuple[int, int]]]]:
    """The ids (length, K) of every sequence of the docs, in order, and each doc's bounds."""
    featurizer: Featurizer = model.attrs["featurizer"]
    bounds = sequence_bounds_of(docs)
    labelled = [(doc, doc_bounds) for doc, doc_bounds in zip(docs, bounds) if doc_bounds]
    all_ids = featurizer.extract_docs([doc for doc, _ in labelled], train)
    pieces = [
        ids[start:end]
        for ids, (_, doc_bounds) in zip(all_ids, labelled)
        for start, end in doc_bounds
    ]
    return pieces, bounds


def featurize(model: Model, docs: Sequence[Doc], train: bool = False):
    """Flat window ids (n_rows, K), token index (n_seq, T), lengths (n_seq,), bounds and,
    for a model with `doc_context`, its repeated words (`occurrence_groups`; else None)."""
    pieces, bounds = _sequence_ids(model, docs, train)
    flat, index = flatten_windows(pieces, model.attrs["window_size"] // 2)
    lengths = numpy.array([len(piece) for piece in pieces], dtype="int64")
    context = occurrence_groups(docs, index, lengths) if model.attrs["doc_context"] else None
    return (
        torch.from_numpy(flat),
        torch.from_numpy(index),
        torch.from_numpy(lengths),
        bounds,
        context,
    )


class LevelBatch(NamedTuple):
    """A batch of level copies split for a network that encodes each sentence once: the
    distinct sentences' ids (without the level columns, `model.attrs["level_features"]`)
    and their keys, each sequence's level columns and sentence, and each doc's bounds.
    Sequences with the same sentence ids (the level copies of one sentence) share one."""

    keys: List[bytes]  # per distinct sentence: its ids' bytes
    sentences: List[numpy.ndarray]  # per distinct sentence: its ids (length, K_s)
    levels: List[numpy.ndarray]  # per sequence: its level ids (length, K_l)
    row_sentence: List[int]  # per sequence: its distinct sentence
    bounds: List[List[Tuple[int, int]]]


def level_batch(model: Model, docs: Sequence[Doc], train: bool = False) -> LevelBatch:
    """The docs' sequences as a `LevelBatch`."""
    pieces, bounds = _sequence_ids(model, docs, train)
    featurizer: Featurizer = model.attrs["featurizer"]
    levels = numpy.asarray(featurizer.columns_of(model.attrs["level_features"]), dtype=bool)
    return batch_of_levels(
        [ids[:, ~levels] for ids in pieces], [ids[:, levels] for ids in pieces], bounds
    )


def batch_of_levels(
    sentence_ids: Sequence[numpy.ndarray],
    level_ids: List[numpy.ndarray],
    bounds: List[List[Tuple[int, int]]],
) -> LevelBatch:
    """A `LevelBatch` of sequences given as each one's sentence ids (length, K_s) and
    level ids (length, K_l): sequences with the same sentence ids share one sentence."""
    sentence_of: dict = {}
    sentences: List[numpy.ndarray] = []
    row_sentence = []
    for words in sentence_ids:
        key = words.tobytes()
        if key not in sentence_of:
            sentence_of[key] = len(sentences)
            sentences.append(words)
        row_sentence.append(sentence_of[key])
    return LevelBatch(list(sentence_of), sentences, level_ids, row_sentence, bounds)


def featurize_levels(model: Model, docs: Sequence[Doc], train: bool = False):
    """The inputs of a network that encodes each distinct sentence once (the parser's
    level heads), each laid out by `flatten_windows`: the distinct sentences' ids and
    index, the level ids and index of every sequence, each sequence's sentence and
    length; and the bounds."""
    batch = level_batch(model, docs, train)
    half_window = model.attrs["window_size"] // 2
    sentence_flat, sentence_index = flatten_windows(batch.sentences, half_window)
    level_flat, level_index, lengths = level_rows(batch, half_window)
    inputs = (
        torch.from_numpy(sentence_flat),
        torch.from_numpy(sentence_index),
        level_flat,
        level_index,
        torch.tensor(batch.row_sentence, dtype=torch.long),
        lengths,
    )
    return inputs, batch.bounds


def level_rows(
    batch: LevelBatch, half_window: int
) -> Tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """The level ids and index of every sequence of `batch` (`flatten_windows`), and their
    lengths."""
    level_flat, level_index = flatten_windows(batch.levels, half_window)
    lengths = torch.tensor([len(ids) for ids in batch.levels], dtype=torch.long)
    return torch.from_numpy(level_flat), torch.from_numpy(level_index), lengths


def occurrence_groups(
    docs: Sequence[Doc], index: numpy.ndarray, lengths: numpy.ndarray
) -> torch.Tensor:
    """The repeated words of a batch, as a (2, M) tensor: the hidden-layer row of each
    token whose lowercase form occurs again in its Doc (rows as in `index`, see
    `flatten_windows`), and its group (0 .. G-1), shared with those other occurrences.

    The sequences (`sequence_bounds`) tile each Doc, so the batch's tokens in sequence
    order are its Docs' tokens laid end to end.
    """
    words = [doc.to_array(LOWER).reshape(-1) for doc in docs]
    if not sum(map(len, words)):
        return torch.zeros(2, 0, dtype=torch.long)
    _, word_ids = numpy.unique(numpy.concatenate(words), return_inverse=True)
    doc_ids = numpy.repeat(numpy.arange(len(words)), [len(w) for w in words])
    per_doc = doc_ids * (int(word_ids.max()) + 1) + word_ids.reshape(-1)
    _, tokens, counts = numpy.unique(per_doc, return_inverse=True, return_counts=True)
    tokens = tokens.reshape(-1)
    repeated = counts[tokens] > 1
    _, groups = numpy.unique(tokens[repeated], return_inverse=True)
    rows = index[numpy.arange(index.shape[1]) < lengths[:, None]]
    pairs = numpy.stack([rows[repeated], groups.reshape(-1)])
    return torch.from_numpy(pairs.astype("int64"))


def predicate_sentences(
    predicates: Sequence[int], bounds: List[Tuple[int, int]], n_tokens: int
) -> List[Tuple[int, int]]:
    """(start, end) of each predicate's sequence among a doc's `bounds` (`sequence_bounds`);
    a ValueError for a predicate outside the doc's `n_tokens`."""
    for p in predicates:
        if not 0 <= p < n_tokens:
            raise ValueError(f"Predicate index {p} is outside the doc ({n_tokens} tokens).")
    starts = numpy.array([start for start, _ in bounds])
    which = numpy.searchsorted(starts, numpy.asarray(predicates), side="right") - 1
    return [bounds[k] for k in which.tolist()]


def featurize_predicates(model: Model, pairs: Sequence[Tuple[Doc, List[int]]], train: bool):
    """Flat ids and sentence index of every sentence holding a predicate, and per row
    (one per predicate): its sentence, predicate offset in it, and length."""
    featurizer: Featurizer = model.attrs["featurizer"]
    pieces: List = []
    row_sentence, row_predicate, lengths = [], [], []
    bounds: List[List[Tuple[int, int]]] = []
    predicates: List[List[int]] = []
    with_predicates = [doc for doc, doc_predicates in pairs if doc_predicates]
    all_ids = iter(featurizer.extract_docs(with_predicates, train))
    all_bounds = iter(sequence_bounds_of(with_predicates))
    for doc, doc_predicates in pairs:
        doc_bounds: List[Tuple[int, int]] = []
        if doc_predicates:
            ids = next(all_ids)
            piece_of = {}
            sentences = predicate_sentences(doc_predicates, next(all_bounds), len(doc))
            for p, (start, end) in zip(doc_predicates, sentences):
                if start not in piece_of:
                    piece_of[start] = len(pieces)
                    pieces.append(ids[start:end])
                row_sentence.append(piece_of[start])
                row_predicate.append(p - start)
                lengths.append(end - start)
                doc_bounds.append((start, end))
        bounds.append(doc_bounds)
        predicates.append(list(doc_predicates))
    flat, index = flatten_windows(pieces, model.attrs["window_size"] // 2)
    rows = torch.from_numpy(numpy.array([row_sentence, row_predicate, lengths], dtype="int64"))
    tensors = (torch.from_numpy(flat), torch.from_numpy(index), rows[0], rows[1], rows[2])
    return tensors, bounds, predicates
