"""The ids of a featurizer's context-free features, kept per word (orth) as array rows."""

from itertools import repeat
from typing import Callable, Dict, Sequence

import numpy

from ..runtime.distinct import distinct
from ..runtime.growing import appended
from ..runtime.threads import inference_lock

#: words kept before the table starts again (en_senna's rows: 192 bytes a word)
MAX_WORDS = 500_000
#: a call of at most this many tokens (a text labelled alone) finds its words in a dict,
#: one lookup a token, and its new words join the dict only: the sorted orths a batch
#: reads by `searchsorted` are brought up to date (one sort) when a batch next comes,
#: not copied to take in each text's new words (EWT texts labelled alone, after 1,000:
#: about 4% of en_senna's time went to those copies)
SMALL_CALL = 256


class OrthIds:
    """orth -> one row of int64 ids, read for a whole batch's tokens at once.

    The orths seen so far are kept sorted, each with the number of its row, so a batch is
    one `searchsorted` and one gather (the batch's own words are sorted only when some are
    new); only orths never seen before go through `compute` (one Python call each). New
    rows are appended to a buffer that doubles when full, and only the sorted orths and
    row numbers (16 bytes a word) are copied to take new words in; a small call reads and
    extends a dict of the same row numbers instead (`SMALL_CALL`). Past `max_words` words
    the table starts again empty, so a long run over text with new words in every batch
    keeps both its memory and that copy bounded. Reads and clears hold the table's lock:
    components in other threads share it (senna_words').
    """

    def __init__(self, max_words: int = MAX_WORDS) -> None:
        self.max_words = max_words
        self.clear()

    def __len__(self) -> int:
        return len(self._row_of)

    def clear(self) -> None:
        """Forget every word (the features' ids changed, or the table is full)."""
        with inference_lock(self):
            self._row_of: Dict[int, int] = {}
            self._orths = numpy.zeros(0, dtype="uint64")
            self._where = numpy.zeros(0, dtype="int64")
            self._sorted = True  # whether `_orths` and `_where` hold every word
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
        if len(self._row_of) > self.max_words:
            self.clear()
        small = len(orths) <= SMALL_CALL
        if small:
            known = map(self._row_of.get, orths.tolist(), repeat(-1))
            where = numpy.fromiter(known, numpy.int64, len(orths))
        else:
            self._sort()
            where = self._find(orths)
        missing = where < 0
        if numpy.count_nonzero(missing):
            new, first, inverse = distinct(orths[missing])
            added = self._append(compute(new, numpy.flatnonzero(missing)[first]), len(new))
            where[missing] = added[inverse]
            self._row_of.update(zip(new.tolist(), added.tolist()))
            if small:
                self._sorted = False
            else:
                at = numpy.searchsorted(self._orths, new)
                self._orths = numpy.insert(self._orths, at, new)
                self._where = numpy.insert(self._where, at, added)
        return self._rows[where]

    def _sort(self) -> None:
        """Bring the sorted orths and their row numbers up to the dict's words."""
        if not self._sorted:
            n = len(self._row_of)
            orths = numpy.fromiter(self._row_of.keys(), numpy.uint64, n)
            order = numpy.argsort(orths)
            self._orths = orths[order]
            self._where = numpy.fromiter(self._row_of.values(), numpy.int64, n)[order]
            self._sorted = True

    def _find(self, orths: numpy.ndarray) -> numpy.ndarray:
        """Each orth's row number, -1 where it has none."""
        if not len(self._orths):
            return numpy.full(len(orths), -1, dtype="int64")
        at = numpy.searchsorted(self._orths, orths).clip(max=len(self._orths) - 1)
        return numpy.where(self._orths[at] == orths, self._where[at], -1)

    def _append(self, rows: Sequence, n: int) -> numpy.ndarray:
        """Store `n` new rows after the others; their row numbers."""
        used = len(self._row_of)
        self._rows = appended(self._rows, used, numpy.array(rows, dtype="int64").reshape(n, -1))
        return numpy.arange(used, used + n)
