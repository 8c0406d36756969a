"""The ids of a featurizer's context-free features, kept per word (orth) as array rows."""

from typing import Callable, Sequence

import numpy


class OrthIds:
    """orth -> one row of int64 ids, read for a whole batch's distinct orths at once.

    The orths seen so far are kept sorted beside their rows, so a batch is one
    `searchsorted` and one gather; only orths never seen before go through `compute`
    (one Python call each) and join the table.
    """

    def __init__(self) -> None:
        self._orths = numpy.zeros(0, dtype="uint64")
        self._rows = numpy.zeros((0, 0), dtype="int64")

    def __len__(self) -> int:
        return len(self._orths)

    def clear(self) -> None:
        self.__init__()

    def rows(
        self, orths: numpy.ndarray, compute: Callable[[numpy.ndarray], Sequence]
    ) -> numpy.ndarray:
        """(len(orths), n_ids): the row of each of `orths` (distinct and sorted, as
        `numpy.unique` gives them); `compute(new_orths)` gives the rows of the orths not
        seen yet (an array of them), one sequence of ids each."""
        orths = orths.astype("uint64", copy=False)
        where = self._find(orths)
        missing = where < 0
        if missing.any():
            self._add(orths[missing], compute(orths[missing]))
            where = self._find(orths)
        return self._rows[where]

    def _find(self, orths: numpy.ndarray) -> numpy.ndarray:
        """Each orth's row in the table, -1 where it has none."""
        if not len(self._orths):
            return numpy.full(len(orths), -1, dtype="int64")
        where = numpy.searchsorted(self._orths, orths).clip(max=len(self._orths) - 1)
        return numpy.where(self._orths[where] == orths, where, -1)

    def _add(self, orths: numpy.ndarray, rows: list) -> None:
        new = numpy.array(rows, dtype="int64").reshape(len(orths), -1)
        if not len(self._orths):
            self._orths, self._rows = orths.copy(), new
            return
        at = numpy.searchsorted(self._orths, orths)
        self._orths = numpy.insert(self._orths, at, orths)
        self._rows = numpy.insert(self._rows, at, new, axis=0)
