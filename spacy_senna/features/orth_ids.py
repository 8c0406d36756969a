"""The ids of a featurizer's context-free features, kept per word (orth) as array rows."""

from typing import Callable, Sequence

import numpy

from ..runtime.threads import inference_lock

#: words kept before the table starts again (en_senna's rows: 192 bytes a word)
MAX_WORDS = 500_000


class OrthIds:
    """orth -> one row of int64 ids, read for a whole batch's tokens at once.

    The orths seen so far are kept sorted, each with the number of its row, so a batch is
    one `searchsorted` and one gather (the batch's own words are sorted only when some are
    new); only orths never seen before go through `compute` (one Python call each). New
    rows are appended to a buffer that doubles when full, and only the sorted orths and
    row numbers (16 bytes a word) are copied to take new words in. Past `max_words` words
    the table starts again empty, so a long run over text with new words in every batch
    keeps both its memory and that copy bounded. Reads and clears hold the table's lock:
    components in other threads share it (senna_words').
    """

    def __init__(self, max_words: int = MAX_WORDS) -> None:
        self.max_words = max_words
        self.clear()

    def __len__(self) -> int:
        return len(self._orths)

    def clear(self) -> None:
        """Forget every word (the features' ids changed, or the table is full)."""
        with inference_lock(self):
            self._orths = numpy.zeros(0, dtype="uint64")
            self._where = numpy.zeros(0, dtype="int64")
            self._rows = numpy.zeros((0, 0), dtype="int64")

    def rows(
        self, orths: numpy.ndarray, compute: Callable[[numpy.ndarray, numpy.ndarray], Sequence]
    ) -> numpy.ndarray:
        """(len(orths), n_ids): the row of each of `orths` (a batch's tokens, repeats and
        all); `compute(new, first)` gives the rows of the orths not seen yet (distinct and
        sorted, with where each first occurs in `orths`), one sequence of ids each."""
        with inference_lock(self):
            return self._rows_of(orths.astype("uint64", copy=False), compute)

    def _rows_of(
        self, orths: numpy.ndarray, compute: Callable[[numpy.ndarray, numpy.ndarray], Sequence]
    ) -> numpy.ndarray:
        if len(self._orths) > self.max_words:
            self.clear()
        where = self._find(orths)
        missing = where < 0
        if numpy.count_nonzero(missing):
            new, first, inverse = numpy.unique(
                orths[missing], return_index=True, return_inverse=True
            )
            added = self._append(compute(new, numpy.flatnonzero(missing)[first]), len(new))
            where[missing] = added[inverse.reshape(-1)]
            at = numpy.searchsorted(self._orths, new)
            self._orths = numpy.insert(self._orths, at, new)
            self._where = numpy.insert(self._where, at, added)
        return self._rows[where]

    def _find(self, orths: numpy.ndarray) -> numpy.ndarray:
        """Each orth's row number, -1 where it has none."""
        if not len(self._orths):
            return numpy.full(len(orths), -1, dtype="int64")
        at = numpy.searchsorted(self._orths, orths).clip(max=len(self._orths) - 1)
        return numpy.where(self._orths[at] == orths, self._where[at], -1)

    def _append(self, rows: Sequence, n: int) -> numpy.ndarray:
        """Store `n` new rows after the others; their row numbers."""
        new = numpy.array(rows, dtype="int64").reshape(n, -1)
        used = len(self._orths)
        if used + n > len(self._rows):
            grown = numpy.zeros((max(2 * len(self._rows), used + n, 1024), new.shape[1]), "int64")
            if used:
                grown[:used] = self._rows[:used]
            self._rows = grown
        self._rows[used : used + n] = new
        return numpy.arange(used, used + n)
