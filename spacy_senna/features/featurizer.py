"""A component's features together: a doc -> the id columns its network embeds."""

from typing import Any, Callable, Dict, List, Optional, Sequence, Union

import numpy
from spacy.attrs import ORTH
from spacy.tokens import Doc
from thinc.api import Model
from torch import nn

from ..layers.char_cnn import CharCNNSpec
from ..layers.lookup_spec import LookupSpec
from ..runtime.last_call import LastCall
from .base import Feature, word_form
from .chars import CharFeature
from .orth_ids import OrthIds
from .shared import WORD_TABLE_NAME, OwnWordsFeature, SharedWordsFeature


class Featurizer:
    """An ordered set of named features: a doc -> (len(doc), n_columns) ids.

    A feature given as None is left out: `word = null` in a config's [model.features]
    drops a component's default word feature. The columns of the features with one
    lookup table per column come first, in declaration order, then those of the
    character features (one CNN each), then those of a shared word table (at most one
    `SharedWordsFeature`: the upstream senna_words component's columns).

    `remember_last` keeps the ids of the last batch with its words, so the next
    component that asks for the same docs' ids reads them (senna_words' featurizer,
    which the tagger and then the chunker read for each doc).
    """

    def __init__(self, features: Dict[str, Optional[Feature]], remember_last: bool = False):
        features = {name: _as_feature(f) for name, f in features.items() if f is not None}
        if not features:
            raise ValueError("A senna model needs at least one feature (e.g. 'word').")
        for name, feature in features.items():
            if not isinstance(feature, Feature):
                raise ValueError(
                    f"Feature '{name}' is {type(feature).__name__}, not a spacy-senna "
                    'feature: use e.g. @misc = "spacy-senna.WordFeature.v1", or null to '
                    "leave a default feature out."
                )
        self.features = features
        shared = [f for f in features.values() if isinstance(f, SharedWordsFeature)]
        if len(shared) > 1:
            raise ValueError("A senna model reads at most one shared word table.")
        self.shared: Optional[SharedWordsFeature] = shared[0] if shared else None
        own = [f for f in features.values() if f is not self.shared]
        self._tabled = [f for f in own if not isinstance(f, CharFeature)]
        self._chars = [f for f in own if isinstance(f, CharFeature)]
        self._all_context_free = all(f.context_free for f in own)
        self._free = [f for f in self._tabled if f.context_free] + self._chars
        # orth -> ids of every context-free feature, in column order
        self._cache = OrthIds()
        self._last = LastCall() if remember_last else None

    @property
    def widths(self) -> List[int]:
        """Embedding width of each lookup-table column."""
        return [w for f in self._tabled for w in f.widths]

    @property
    def table_sizes(self) -> List[int]:
        """Rows of each lookup-table column's table."""
        return [s for f in self._tabled for s in f.table_sizes]

    @property
    def char_cnns(self) -> List[CharCNNSpec]:
        """The character CNN of each character feature, for the columns after the tables."""
        return [f.cnn_spec() for f in self._chars]

    @property
    def shared_lookup(self) -> Union[Callable[[], nn.Module], nn.Module, None]:
        """The shared word table's torch lookup (a callable), or the module itself where
        this component owns a copy of the table, for the last columns."""
        return self.shared.lookup() if self.shared is not None else None

    def own_words(self, table: Model) -> OwnWordsFeature:
        """Read `table`, a copy of the shared word table, as this featurizer's own (same
        name, same columns) instead of the shared one (`nlp.replace_listeners`)."""
        if self.shared is None:
            raise ValueError("This component reads no shared word table to replace.")
        name = next(n for n, f in self.features.items() if f is self.shared)
        own = OwnWordsFeature(table)
        self.features[name] = self.shared = own
        return own

    def fit(self, docs: List[Doc], vocab=None) -> None:
        for feature in self.features.values():
            feature.fit(docs, vocab)
        self._forget()

    def initial_tables(self) -> List[Optional[numpy.ndarray]]:
        return [f.initial_table(col) for f in self._tabled for col in range(f.n_columns)]

    @property
    def keep_initial(self) -> List[bool]:
        """Per lookup-table column: its initialised rows keep their values in training."""
        return [not f.fine_tune_initial for f in self._tabled for _ in range(f.n_columns)]

    def lookup_spec(self, with_initial_tables: bool) -> LookupSpec:
        """What the network's lookup of these columns is made of: the tables (their
        initial rows only when built to be initialised, not to be loaded into), the
        character CNNs and the shared word table's lookup."""
        return LookupSpec(
            table_sizes=self.table_sizes,
            widths=self.widths,
            initial_tables=self.initial_tables() if with_initial_tables else None,
            keep_initial=self.keep_initial,
            char_cnns=self.char_cnns,
            shared=self.shared_lookup,
        )

    @property
    def n_columns(self) -> int:
        return sum(f.n_columns for f in self.features.values())

    def columns_of(self, names: Sequence[str]) -> List[bool]:
        """Per id column, whether it belongs to one of the named features."""
        unknown = sorted(set(names) - set(self.features))
        if unknown:
            raise ValueError(
                f"The model has no feature(s) {unknown}; its features: {sorted(self.features)}"
            )
        chosen = [self.features[name] for name in names]
        in_order = self._tabled + self._chars + ([self.shared] if self.shared else [])
        return [any(f is c for c in chosen) for f in in_order for _ in range(f.n_columns)]

    def extract(self, doc: Doc, train: bool = False) -> numpy.ndarray:
        """(len(doc), n_columns) int64 ids of one doc (`train`: ids for an update)."""
        return self.extract_docs([doc], train)[0]

    def extract_docs(self, docs: Sequence[Doc], train: bool = False) -> List[numpy.ndarray]:
        """The ids of each doc, as `extract` gives them, for a batch at once.

        The ids of all context-free features are cached together per orth and read once
        per distinct word of the batch (the hot path of every component).
        """
        words = [doc for doc in docs if len(doc)]
        own = iter(
            self._with_contextual(doc, free, train)
            for doc, free in zip(words, self._extract_free(words))
        )
        shared = iter(self.shared.extract_docs(words, train) if self.shared is not None else [])
        out = []
        for doc in docs:
            if not len(doc):
                out.append(numpy.zeros((0, self.n_columns), dtype="int64"))
            elif self.shared is None:
                out.append(next(own))
            else:
                out.append(numpy.concatenate([next(own), next(shared)], axis=1))
        return out

    def _with_contextual(self, doc: Doc, free: numpy.ndarray, train: bool) -> numpy.ndarray:
        """A doc's own columns: `free` (the context-free ones) with the contextual ones."""
        if self._all_context_free:
            return free
        blocks, col = [], 0
        for feature in self._tabled:
            if feature.context_free:
                blocks.append(free[:, col : col + feature.n_columns])
                col += feature.n_columns
            else:
                blocks.append(feature.extract(doc, train))
        if self._chars:
            blocks.append(free[:, col:])  # the character features' columns
        return numpy.concatenate(blocks, axis=1)

    def _extract_free(self, docs: Sequence[Doc]) -> List[numpy.ndarray]:
        """Per doc, the columns of every context-free feature (one cached row per orth,
        read once per distinct orth of `docs`, which are not empty)."""
        lengths = [len(doc) for doc in docs]
        if not self._free or not docs:
            return [numpy.zeros((n, 0), dtype="int64") for n in lengths]
        orths = numpy.concatenate([doc.to_array(ORTH).reshape(-1) for doc in docs])
        key = (orths.tobytes(), tuple(lengths)) if self._last is not None else None
        if key is not None and (kept := self._last.get(key)) is not None:
            return kept
        ends = numpy.cumsum(lengths) if len(docs) > 1 else None  # one doc: no split

        def text_ids(new: numpy.ndarray, first: numpy.ndarray) -> List[List[int]]:
            # each new word's text from the vocab of the doc where it first occurs
            if ends is None:
                owners = [0] * len(new)
            else:
                owners = numpy.searchsorted(ends, first, side="right").tolist()
            texts = [word_form(docs[d].vocab.strings[o]) for o, d in zip(new.tolist(), owners)]
            return [[i for f in self._free for i in f.text_ids(text)] for text in texts]

        ids = self._cache.rows(orths, text_ids)
        ids.flags.writeable = False  # the pieces may be handed to the next caller too
        pieces = [ids] if ends is None else numpy.split(ids, ends[:-1])
        return self._last.keep(key, pieces) if key is not None else pieces

    def to_dict(self) -> dict:
        return {name: f.to_dict() for name, f in self.features.items()}

    def _forget(self) -> None:
        """Drop the words' kept ids (the features' dictionaries changed)."""
        self._cache.clear()
        if self._last is not None:
            self._last.clear()

    def from_dict(self, data: dict) -> None:
        self._forget()
        missing = set(self.features) - set(data)
        if missing:
            raise ValueError(
                f"Saved senna model has no data for feature(s) {sorted(missing)}: it was "
                "saved with a different feature configuration."
            )
        for name, feature in self.features.items():
            feature.from_dict(data[name])


def _as_feature(value: Any) -> Any:
    """A feature; a senna_words table model (spacy-senna.WordTable.v1, written in a
    component's features by `nlp.replace_listeners`) becomes the component's own copy."""
    if isinstance(value, Model) and value.name == WORD_TABLE_NAME:
        return OwnWordsFeature(value)
    return value
