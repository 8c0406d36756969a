"""Transition matrices with hard constraints, applied at the cost of their allowed entries.

Under BILUO constraints most of a CRF's C x C transitions are forbidden: I-X and L-X
follow only B-X or I-X, and O, B-* and U-* follow only O, L-* or U-*. With SRL's ~50
labels (C ~ 200) a dense step touches C^2 ~ 45k pairs where ~11k are allowed. This
module splits the next tags into two groups: "wide" tags with many predecessors, taken
as one dense block over the union of their predecessors, and "narrow" tags, taken by
gathering their few predecessors. Viterbi's max-plus step then gives the dense step's
result float for float (a max over the same finite values, in any order).
"""

from typing import Optional

import torch
from torch import Tensor

#: a next tag with more predecessors than this joins the dense block
WIDE_IN_DEGREE = 8
#: below this many tags the dense step is used (nothing to save)
MIN_TAGS = 32
#: the plan is used only when it touches at most this share of the C x C pairs
MAX_COST_SHARE = 0.6


class SparseTransitions:
    """The allowed part of a (prev, next) transition matrix, for batched steps.

    Build it with :meth:`plan`, which returns None when the dense step is as cheap.
    `values` holds scores whose forbidden entries (False in `allowed`) are -inf: the
    dense block and the padding of short predecessor lists read forbidden entries, which
    then change nothing.
    """

    def __init__(self, values: Tensor, allowed: Tensor):
        C = values.shape[0]
        in_degree = allowed.sum(0)
        wide = in_degree > WIDE_IN_DEGREE
        self.wide_next = torch.nonzero(wide).squeeze(1)
        self.narrow_next = torch.nonzero(~wide).squeeze(1)
        self.wide_prev = torch.nonzero(allowed[:, wide].any(1)).squeeze(1)
        # (n_wide_next, n_wide_prev): the dense block, laid out next-major
        self.wide_values = values[self.wide_prev][:, self.wide_next].T.contiguous()
        width = max(1, int(in_degree[~wide].max())) if len(self.narrow_next) else 1
        narrow_allowed = allowed[:, self.narrow_next].T  # (n_narrow, C)
        # each narrow tag's predecessors first (stable sort of allowed before forbidden)
        order = torch.sort((~narrow_allowed).to(torch.uint8), dim=1, stable=True).indices
        self.narrow_prev = order[:, :width].contiguous()  # (n_narrow, width)
        self.narrow_values = values.T[self.narrow_next[:, None], self.narrow_prev]
        self.n_tags = C
        self.cost = len(self.wide_next) * len(self.wide_prev) + len(self.narrow_next) * width

    @classmethod
    def plan(cls, values: Tensor, allowed: Tensor) -> Optional["SparseTransitions"]:
        """The sparse plan of scores `values` (C, C), or None when dense steps are as cheap."""
        C = values.shape[0]
        if C < MIN_TAGS or bool(allowed.all()):
            return None
        sparse = cls(values, allowed)
        return sparse if sparse.cost <= MAX_COST_SHARE * C * C else None

    def max_plus(self, prev: Tensor) -> Tensor:
        """(n, C) -> (n, C): out[:, j] = max_i prev[:, i] + values[i, j] over allowed i."""
        out = prev.new_empty(prev.shape[0], self.n_tags)
        if len(self.wide_next):
            wide = (prev[:, None, self.wide_prev] + self.wide_values).amax(dim=2)
            out[:, self.wide_next] = wide
        narrow = prev[:, self.narrow_prev] + self.narrow_values
        out[:, self.narrow_next] = narrow.amax(dim=2)
        return out
