"""The shared word table as a feature: a component reads a `senna_words` component's
lookup tables (paper §5: tasks trained jointly share their word lookup table).

The feature owns no table. Its id columns are the upstream featurizer's, and the
network embeds them with the upstream's `FeatureLookup`, which it holds by reference
and never as a submodule. So the table is saved once, by `senna_words`, and every
component's gradient lands in the same parameters, which `senna_words` applies in its
`finish_update`. spaCy links a `SharedWordsFeature` to its upstream when the pipeline is
built or loaded (`SennaWords.find_listeners`), as it links a tok2vec's listeners.
"""

from functools import partial
from typing import Callable, List, Optional, Protocol, Sequence

import numpy
from spacy.tokens import Doc
from thinc.api import Model
from torch import nn

from .base import Feature

#: the upstream name that matches any senna_words component before the listener
ANY_UPSTREAM = "*"
#: the name of a senna_words component's model (spacy-senna.WordTable.v1)
WORD_TABLE_NAME = "senna_word_table"


class UpstreamColumns(Protocol):
    """What a shared-table feature reads of its table: the senna_words model's
    `Featurizer`, which holds features such as this one (so this module cannot import it)."""

    n_columns: int

    def fit(self, docs, vocab=None) -> None: ...

    def extract(self, doc: Doc, train: bool = False) -> numpy.ndarray: ...

    def extract_docs(self, docs: Sequence[Doc], train: bool = False) -> List[numpy.ndarray]: ...

    def to_dict(self) -> dict: ...

    def from_dict(self, data: dict) -> None: ...


class SharedWordsFeature(Feature):
    """The per-token features of an upstream `senna_words` component (linked by spaCy)."""

    context_free = False
    #: spaCy links this feature to a senna_words component (`SennaWords.find_listeners`)
    listens = True

    def __init__(self, upstream: str = ANY_UPSTREAM):
        super().__init__([])
        self.upstream = upstream
        self._table: Optional[Model] = None

    def link(self, table: Model) -> None:
        """Read the lookup tables of `table` (a senna_words model)."""
        self._table = table

    def _upstream_featurizer(self) -> UpstreamColumns:
        if self._table is None:
            name = "a senna_words" if self.upstream == ANY_UPSTREAM else f"'{self.upstream}'"
            raise ValueError(
                f"A component reads the shared word table of {name} component, but none "
                "comes before it in the pipeline: add one first, e.g. "
                "nlp.add_pipe('senna_words', first=True), or give the component its own "
                "word feature instead of spacy-senna.SharedWords.v1."
            )
        return self._table.attrs["featurizer"]

    @property
    def n_columns(self) -> int:
        return self._upstream_featurizer().n_columns

    @property
    def table_sizes(self) -> List[int]:
        return []

    def fit(self, docs, vocab=None) -> None:
        """Nothing to fit (senna_words fits the dictionaries); checks the link."""
        self._upstream_featurizer()

    def extract(self, doc: Doc, train: bool = False) -> numpy.ndarray:
        return self._upstream_featurizer().extract(doc, train)

    def extract_docs(self, docs: Sequence[Doc], train: bool = False) -> List[numpy.ndarray]:
        """`extract` of each doc of a batch, at once."""
        return self._upstream_featurizer().extract_docs(docs, train)

    def lookup(self) -> Callable[[], nn.Module]:
        """A callable that returns the upstream's torch lookup (resolved when called, so
        a network built before the upstream loads its weights sees the loaded ones)."""
        self._upstream_featurizer()
        return partial(upstream_lookup, self._table)

    def to_dict(self) -> dict:
        return {"upstream": self.upstream}

    def from_dict(self, data: dict) -> None:
        self.upstream = data.get("upstream", self.upstream)

    def __deepcopy__(self, memo: dict) -> "SharedWordsFeature":
        # a copy is unlinked: spaCy links it again in the pipeline that holds it
        return SharedWordsFeature(self.upstream)


class OwnWordsFeature(SharedWordsFeature):
    """A component's own copy of a senna_words table: the same columns and lookup, saved
    and trained with the component instead of shared.

    `nlp.replace_listeners("senna_words", NAME, ["model.features.shared"])` leaves one in
    place of the shared table (spaCy writes the table's `spacy-senna.WordTable.v1` config
    at that path, which builds one when the pipeline is loaded); a WordTable written in a
    component's features from the start trains a private table.
    """

    #: not linked to a senna_words component: the table is this feature's own
    listens = False

    def __init__(self, table: Model):
        super().__init__()
        self._table = table

    def fit(self, docs, vocab=None) -> None:
        """Fit the table's dictionaries, then build it (vectors copied in)."""
        self._upstream_featurizer().fit(docs, vocab)
        self._table.initialize()

    def lookup(self) -> nn.Module:
        """The table's torch lookup itself: the network holds it as a submodule. A table
        loaded from disk is built here first; the network's saved weights fill it."""
        if isinstance(self._table.shims[0]._model, nn.Identity):
            self._table.initialize()
        return upstream_lookup(self._table)

    def to_dict(self) -> dict:
        return {"table": self._upstream_featurizer().to_dict()}

    def from_dict(self, data: dict) -> None:
        if "table" not in data:
            raise ValueError(
                "This component was saved reading a shared senna_words table, but its "
                "config gives it a table of its own (spacy-senna.WordTable.v1): load it "
                "with the config it was saved with."
            )
        self._upstream_featurizer().from_dict(data["table"])

    def __deepcopy__(self, memo: dict) -> "OwnWordsFeature":
        return OwnWordsFeature(self._table.copy())


def upstream_lookup(table: Model) -> nn.Module:
    """The torch `FeatureLookup` of a senna_words model."""
    lookup = table.shims[0]._model if table.shims else None
    if lookup is None or isinstance(lookup, nn.Identity):
        raise ValueError(
            "The senna_words component is not initialized: initialize the pipeline "
            "(nlp.initialize) or load a trained one before its listeners run."
        )
    return lookup
