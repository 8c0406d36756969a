"""The sentence encodings a level-heads parser keeps while it labels a batch.

`spacy-senna.LevelHeads.v1` encodes each sentence once for all its levels. In training
every level copy of a sentence is in the same batch; when labelling, the parser asks for
one level at a time, so inside `encodings_kept(model)` the model keeps each sentence's
projected states from the first level and every later level reads them (`forward_levels`).
What is kept belongs to the labelling call that keeps it: a context variable, so a call in
another thread (or task) neither sees nor ends it.
"""

from contextlib import contextmanager
from contextvars import ContextVar
from typing import Dict, Iterator, List, Optional

import torch
from thinc.api import Model

#: the models inside `encodings_kept` in this thread (or task), and what each keeps
_KEPT: ContextVar[Dict[Model, "SentenceEncodings"]] = ContextVar("senna_kept_encodings")


class SentenceEncodings:
    """The projected states of the sentences encoded so far, rows end to end, and where
    each sentence's first token is, by its ids' bytes (`LevelBatch.keys`)."""

    def __init__(self) -> None:
        self.first_row: Dict[bytes, int] = {}
        self.words: Optional[torch.Tensor] = None

    def missing(self, keys: List[bytes]) -> List[int]:
        """The positions in `keys` of the sentences not encoded yet."""
        return [i for i, key in enumerate(keys) if key not in self.first_row]

    def add(self, keys: List[bytes], words: torch.Tensor, first_rows: torch.Tensor) -> None:
        """Keep `words` (n_rows, width), the encodings of the sentences `keys`, whose first
        tokens are at `first_rows` (S,) of it."""
        offset = 0 if self.words is None else len(self.words)
        self.words = words if self.words is None else torch.cat([self.words, words])
        for key, row in zip(keys, (first_rows + offset).tolist()):
            self.first_row[key] = row

    def token_rows(
        self, keys: List[bytes], row_sentence: torch.Tensor, lengths: torch.Tensor, time: int
    ) -> torch.Tensor:
        """(R, time): the row in `words` of each token of each row, whose sentence is
        `keys[row_sentence[r]]` and length `lengths[r]`; row 0 past a sentence's end."""
        first = torch.tensor([self.first_row[key] for key in keys], dtype=torch.long)
        first = first[row_sentence]
        positions = torch.arange(time)
        rows = first[:, None] + positions[None]
        return torch.where(positions[None] < lengths[:, None], rows, 0)


def kept_encodings(model: Model) -> Optional[SentenceEncodings]:
    """The encodings `model` keeps now (inside `encodings_kept`), or None."""
    return _KEPT.get({}).get(model)


@contextmanager
def encodings_kept(model: Model) -> Iterator[None]:
    """Inside the block, a level-heads model keeps each sentence's encoding when labelling
    and reuses it at the sentence's later levels; they are dropped when the block ends."""
    token = _KEPT.set({**_KEPT.get({}), model: SentenceEncodings()})
    try:
        yield
    finally:
        _KEPT.reset(token)
