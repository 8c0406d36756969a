"""Rows of CRF scores from several model calls, packed position by position.

A model call gives padded (rows, T, C) scores, and one batch of docs may take several
calls (SRL: a row per predicate). Decoding call by call repeats the per-position loop for
each; packed, the rows of every call are sorted longest first and laid out position by
position, as torch's PackedSequence lays them out: position t of the k-th longest row is
`data[offsets[t] + k]`, and the rows still running at t are the first `batch_sizes[t]`.
One loop over the longest row then covers every row, each step touching only the rows
that reach it.
"""

from typing import List, Optional, Sequence, Tuple

import torch
from torch import Tensor


class PackedChains:
    """The real positions of many rows of scores, packed (see the module docstring).

    data: (N, C) the scores of every real position (N = total length).
    lengths: (B,) each row's length, rows in the order they were given.
    order: (B,) the given row of each sorted row (longest first, stable).
    batch_sizes, offsets: per position t, the rows that reach it and where they start.
    """

    def __init__(
        self,
        data: Tensor,
        lengths: Tensor,
        order: Tensor,
        batch_sizes: List[int],
        offsets: List[int],
    ):
        self.data = data
        self.lengths = lengths
        self.order = order
        self.batch_sizes = batch_sizes
        self.offsets = offsets

    @classmethod
    def pack(
        cls,
        chunks: Sequence[Tuple[Tensor, Tensor]],
        columns: Optional[Tensor] = None,
        dtype: Optional[torch.dtype] = None,
    ) -> "PackedChains":
        """Pack (emissions (R, T, C), lengths (R,)) pairs, rows in the order given;
        `columns` picks (and reorders) the tags kept, `dtype` converts the scores."""
        device = chunks[0][0].device
        lengths = torch.cat([torch.as_tensor(n, device=device).long() for _, n in chunks])
        order = torch.argsort(lengths, descending=True, stable=True)
        rank = torch.empty_like(order)
        rank[order] = torch.arange(len(order), device=device)
        longest = int(lengths.max()) if len(lengths) else 0
        positions = torch.arange(longest, device=device)
        sizes = (lengths[None, :] > positions[:, None]).sum(1)
        starts = torch.cumsum(sizes, 0) - sizes
        n_tags = chunks[0][0].shape[2] if columns is None else len(columns)
        data = chunks[0][0].new_empty(int(lengths.sum()), n_tags, dtype=dtype)
        first_row = 0
        for emissions, chunk_lengths in chunks:
            R, T = emissions.shape[:2]
            real = (
                torch.arange(T, device=device)[None, :] < lengths[first_row : first_row + R, None]
            )
            rows, steps = torch.nonzero(real, as_tuple=True)
            values = emissions[rows, steps]
            if columns is not None:
                values = values.index_select(1, columns)
            data[starts[steps] + rank[first_row + rows]] = values.to(data.dtype)
            first_row += R
        return cls(data, lengths, order, sizes.tolist(), starts.tolist())

    @property
    def n_rows(self) -> int:
        return len(self.lengths)

    def last_positions(self) -> Tensor:
        """(number of non-empty rows,) the index in `data` of each sorted row's last
        position."""
        sorted_lengths = self.lengths[self.order]
        live = int((sorted_lengths > 0).sum())
        starts = torch.tensor(self.offsets, dtype=torch.long, device=self.data.device)
        ranks = torch.arange(live, device=self.data.device)
        return starts[sorted_lengths[:live] - 1] + ranks

    def step(self, t: int, rows: Optional[int] = None) -> slice:
        """The slice of `data` holding position t of the first `rows` sorted rows (all
        the rows that reach t by default)."""
        n = self.batch_sizes[t] if rows is None else rows
        return slice(self.offsets[t], self.offsets[t] + n)

    def unpack(self, sorted_rows: Tensor, fill: int = -1) -> Tensor:
        """(B, T) in the given row order from (non-empty sorted rows, T) values, `fill`
        past each row's length and in empty rows."""
        B = self.n_rows
        T = sorted_rows.shape[1]
        out = sorted_rows.new_full((B, T), fill)
        live = sorted_rows.shape[0]
        out[self.order[:live]] = sorted_rows
        past = torch.arange(T, device=out.device)[None, :] >= self.lengths[:, None]
        return out.masked_fill_(past, fill)
