"""Encodings of id rows kept at inference, so a word seen once is gathered, not encoded
again (a character CNN's words: most of a short text's are known, and senna_words' CNN
is read by two components per doc)."""

from typing import Callable, Dict, Tuple

import torch
from torch import Tensor

from ..runtime.threads import inference_lock
from .lexicon import PADDING

#: rows kept before the store starts again
MAX_ROWS = 200_000


class KeptEncodings:
    """Row of ids (its real ids, trailing PADDING trimmed) -> its encoding, on the CPU.

    The encodings are exact copies of what `encode` gave, and an encoding does not depend
    on the other rows it was computed with, so a batch's outputs are unchanged. They are
    valid for one set of weights: `weights` (the versions of the tensors the encoding
    reads) changing, or `clear` (a training forward), forgets them. A read holds the
    store's lock (a shared table's network serves components in several threads).
    """

    def __init__(self, max_rows: int = MAX_ROWS) -> None:
        self.max_rows = max_rows
        self.clear()

    def __len__(self) -> int:
        return len(self._row_of)

    def clear(self) -> None:
        """Forget every encoding."""
        with inference_lock(self):
            self._row_of: Dict[bytes, int] = {}
            self._encodings: Tensor = torch.zeros(0, 0)
            self._weights: Tuple[int, ...] = ()

    def encodings(
        self, rows: Tensor, encode: Callable[[Tensor], Tensor], weights: Tuple[int, ...]
    ) -> Tensor:
        """(n, width): the encoding of each of the `rows` (n, L), from the store where
        kept, else by `encode` (rows -> encodings, run once on the rows not kept), kept
        for next time."""
        with inference_lock(self):
            if weights != self._weights or len(self._row_of) + len(rows) > self.max_rows:
                self.clear()
                self._weights = weights
            ids = rows.numpy()
            lengths = (ids != PADDING).sum(axis=1).tolist()
            keys = [row[:n].tobytes() for row, n in zip(ids, lengths)]
            row_of = self._row_of
            where = [row_of.get(key, -1) for key in keys]
            if -1 in where:
                new = {}
                for i, at in enumerate(where):
                    if at < 0:
                        new.setdefault(keys[i], i)
                self._keep(list(new), encode(rows[list(new.values())]))
                where = [row_of[key] for key in keys]
            return self._encodings[torch.tensor(where, dtype=torch.long)]

    @torch.inference_mode(False)
    def _keep(self, keys: list, encoded: Tensor) -> None:
        # a plain tensor (not an inference one) even while labelling, so the store also
        # grows in a later call made outside torch's inference mode (`model.predict`)
        used = len(self._row_of)
        if used + len(keys) > len(self._encodings):
            grown = encoded.new_empty(
                max(2 * len(self._encodings), used + len(keys), 1024), encoded.shape[1]
            )
            if used:
                grown[:used] = self._encodings[:used]
            self._encodings = grown
        self._encodings[used : used + len(keys)] = encoded
        for offset, key in enumerate(keys):
            self._row_of[key] = used + offset
