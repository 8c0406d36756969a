"""SENNA's window approach network (paper §3.3.1, Figure 1) with its sequence criterion."""

from typing import Optional, Sequence

import numpy
import torch
from torch import Tensor, nn

from ..lexicon import PADDING
from .crf import CRF
from .lookup import FeatureLookup
from .word_likelihood import WordLevelLikelihood


class WindowNetwork(nn.Module):
    """Lookup tables -> window of `window_size` -> Linear -> HardTanh -> Linear(n_tags).

    The window's first Linear layer is a 1-D convolution over the embedded sentence,
    which is the same map applied at every position. Sentence edges are padded with
    the PADDING row of every table (window_size // 2 positions per side), and batch
    padding uses PADDING too, so a short sentence in a batch sees exactly what it would
    see alone.

    *Shape:* ids ``(batch, time, n_tables)`` -> scores ``(batch, time, n_tags)``
    """

    def __init__(
        self,
        *,
        table_sizes: Sequence[int],
        widths: Sequence[int],
        n_tags: int,
        window_size: int = 5,
        hidden_width: int = 300,
        dropout: float = 0.0,
        initial_tables: Optional[Sequence[Optional[numpy.ndarray]]] = None,
    ):
        super().__init__()
        if window_size < 1 or window_size % 2 == 0:
            raise ValueError(f"window_size must be odd and positive, got {window_size}")
        self.lookup = FeatureLookup(
            table_sizes=table_sizes, widths=widths, initial_tables=initial_tables
        )
        self.half_window = window_size // 2
        self.hidden = nn.Conv1d(self.lookup.width, hidden_width, window_size)
        self.dropout = nn.Dropout(dropout)
        self.output = nn.Linear(hidden_width, n_tags)
        self.n_tags = n_tags

    def forward(self, ids: Tensor) -> Tensor:
        B, T, _ = ids.shape
        if T == 0:
            return torch.zeros(B, 0, self.n_tags, device=ids.device)
        h = self.half_window
        padded = nn.functional.pad(ids, (0, 0, h, h), value=PADDING)
        x = self.lookup(padded).transpose(1, 2)  # (B, width, T + 2h)
        hidden = nn.functional.hardtanh(self.hidden(x)).transpose(1, 2)  # (B, T, H)
        return self.output(self.dropout(hidden))


class SequenceTaggerNet(nn.Module):
    """A scoring network plus its training criterion (CRF = SLL, or WLL)."""

    def __init__(self, scorer: nn.Module, criterion: CRF):
        super().__init__()
        self.scorer = scorer
        self.criterion = criterion

    def forward(self, ids: Tensor) -> Tensor:
        return self.scorer(ids)


def build_criterion(
    kind: str,
    n_tags: int,
    *,
    allowed: Optional[tuple] = None,
    constrain_training: bool = False,
) -> CRF:
    """"sll" -> CRF, "wll" -> word-level softmax; `allowed` = (transitions, start, end)."""
    if kind not in ("sll", "wll"):
        raise ValueError(f"criterion must be 'sll' or 'wll', got '{kind}'")
    cls = CRF if kind == "sll" else WordLevelLikelihood
    criterion = cls(n_tags, constrain_training=constrain_training)
    if allowed is not None:
        criterion.set_constraints(*(torch.as_tensor(a) for a in allowed))
    return criterion
