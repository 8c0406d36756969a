"""Lookup tables (paper §3.2, eq. 2): one embedding table per discrete feature column."""

from typing import Optional, Sequence

import numpy
import torch
from torch import Tensor, nn


class FeatureLookup(nn.Module):
    """Embeds K columns of feature ids with K tables and concatenates them.

    Tables are initialised uniformly in [-1, 1] (fan-in 1, the paper's Torch-style
    convention, §4.6); rows given in `initial_tables` (NaN rows = keep random) are copied
    in, e.g. LM-pretrained word vectors, and stay trainable (SENNA fine-tunes them).

    :param table_sizes: rows of each table (PADDING = 0 and UNKNOWN = 1 included).
    :param widths: embedding width of each table.

    *Shape:* ids ``(..., len(widths))`` -> ``(..., sum(widths))``; the networks pass
    flat rows ``(n_rows, len(widths))`` (every sentence of a batch laid end to end)
    """

    def __init__(
        self,
        *,
        table_sizes: Sequence[int],
        widths: Sequence[int],
        initial_tables: Optional[Sequence[Optional[numpy.ndarray]]] = None,
    ):
        super().__init__()
        if len(table_sizes) != len(widths):
            raise ValueError("FeatureLookup needs one width per table")
        self.tables = nn.ModuleList(nn.Embedding(n, w) for n, w in zip(table_sizes, widths))
        for k, table in enumerate(self.tables):
            nn.init.uniform_(table.weight, -1.0, 1.0)
            init = initial_tables[k] if initial_tables is not None else None
            if init is not None:
                rows = torch.as_tensor(init, dtype=table.weight.dtype)
                known = ~torch.isnan(rows).any(dim=1)
                with torch.no_grad():
                    table.weight[known] = rows[known]

    @property
    def width(self) -> int:
        return sum(t.embedding_dim for t in self.tables)

    def forward(self, ids: Tensor) -> Tensor:
        return torch.cat([table(ids[..., k]) for k, table in enumerate(self.tables)], dim=-1)
