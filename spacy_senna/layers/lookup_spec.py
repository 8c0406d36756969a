"""What a network's `FeatureLookup` is made of, passed to every network as one value: the
featurizer's tables, their initial rows, its character CNNs and shared word table."""

from dataclasses import dataclass, replace
from typing import Callable, Optional, Sequence, Tuple

import numpy

from .char_cnn import CharCNNSpec
from .lookup import FeatureLookup


@dataclass(frozen=True)
class LookupSpec:
    """The arguments of a `FeatureLookup` (see there). A network builds its lookup where
    it always has, so its parameters are initialised in the same order.

    :param table_sizes: rows of each lookup table (PADDING = 0, UNKNOWN = 1).
    :param widths: embedding width of each table.
    :param initial_tables: per table, rows to copy in (e.g. LM vectors), or None.
    :param keep_initial: per table, whether the rows copied in stay as they are.
    :param char_cnns: character CNNs after the tables.
    :param shared: a shared word table's lookup (senna_words) after those.
    """

    table_sizes: Sequence[int]
    widths: Sequence[int]
    initial_tables: Optional[Sequence[Optional[numpy.ndarray]]] = None
    keep_initial: Sequence[bool] = ()
    char_cnns: Sequence[CharCNNSpec] = ()
    shared: Optional[Callable[[], FeatureLookup]] = None

    def build(self, remember_last: bool = False) -> FeatureLookup:
        """The lookup, its tables initialised now (`remember_last`: see FeatureLookup)."""
        return FeatureLookup(
            table_sizes=self.table_sizes,
            widths=self.widths,
            initial_tables=self.initial_tables,
            keep_initial=self.keep_initial,
            char_cnns=self.char_cnns,
            shared=self.shared,
            remember_last=remember_last,
        )

    def split(self, flagged: Sequence[bool]) -> Tuple["LookupSpec", "LookupSpec"]:
        """(the tables not `flagged` with the character CNNs and the shared lookup, the
        `flagged` tables alone), e.g. a sentence's features and its level features."""
        if len(flagged) != len(self.table_sizes):
            raise ValueError("LookupSpec.split needs one flag per lookup table")
        n = len(self.widths)
        initial = list(self.initial_tables) if self.initial_tables is not None else [None] * n
        keep = list(self.keep_initial) or [False] * n

        def tables(of_flagged: bool) -> "LookupSpec":
            ks = [k for k, flag in enumerate(flagged) if flag == of_flagged]
            return LookupSpec(
                table_sizes=[self.table_sizes[k] for k in ks],
                widths=[self.widths[k] for k in ks],
                initial_tables=[initial[k] for k in ks],
                keep_initial=[keep[k] for k in ks],
            )

        return replace(tables(False), char_cnns=self.char_cnns, shared=self.shared), tables(True)
