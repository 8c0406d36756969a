"""A CRF's transition matrix as one dense block and a few narrow columns, for fast steps.

Under BILUO constraints most of the C x C transitions are forbidden: I-X and L-X follow
only B-X or I-X ("narrow" next tags), while O, B-* and U-* follow any of O, L-* and U-*
("wide" next tags, one dense block). With SRL's ~45 labels (C = 181) a dense step
touches C^2 ~ 33k pairs where the block holds 91^2 ~ 8k. The tags are reordered once so
that the block's previous and next tags are contiguous slices (`order`); a decoder runs
its steps in that order and maps the result back.

Viterbi's max-plus step over the block is pruned, exactly: the best previous tag of every
next tag lies among the K best previous scores unless the (K+1)-th best score plus the
column's highest transition could beat the maximum found. Rows where that bound fails
(rare once a network is trained: its scores are peaked) take the dense step. The result
equals the dense step float for float (a max over the same finite sums). A small step
(one doc's rows, the last steps of a batch) runs dense outright: its two operations cost
less than the pruned step's six.
"""

from typing import Optional, Tuple

import numpy
import torch
from torch import Tensor

#: a next tag with more allowed previous tags than this joins the dense block
WIDE_IN_DEGREE = 8
#: previous scores a pruned max-plus step tries before checking its bound
PRUNE_K = 4
#: a max-plus step whose dense sums hold at most this many floats runs dense
SMALL_STEP_FLOATS = 1 << 15
#: floats of the (rows, block rows, block columns) sums of one dense chunk: on a CPU
#: within its caches, on a GPU (which takes the dense steps) a few kernels per step
DENSE_CHUNK_FLOATS = 1 << 21
GPU_CHUNK_FLOATS = 1 << 27


class TransitionBlocks:
    """The allowed part of a (previous, next) transition matrix, in block order.

    `values` holds scores with forbidden entries at -inf (`allowed` False). In block
    order (`order[i]`: the original tag at position i) the tags are: next-only block tags,
    tags in the block both ways, previous-only block tags, then the rest; the block's
    next tags are `[0, n_wide)`, its previous tags `prev_slice`, and the narrow next
    tags `[n_wide, C)` each read their few previous tags by a gather, padded with -inf.
    A matrix without constraints is one block of every tag.
    """

    def __init__(self, values: Tensor, allowed: Tensor):
        C = values.shape[0]
        allowed = allowed.to(device=values.device, dtype=torch.bool)
        in_degree = allowed.sum(0)
        wide_next = (
            torch.ones(C, dtype=torch.bool, device=values.device)
            if bool(allowed.all())
            else in_degree > WIDE_IN_DEGREE
        )
        wide_prev = allowed[:, wide_next].any(1)
        parts = (
            wide_next & ~wide_prev,
            wide_next & wide_prev,
            ~wide_next & wide_prev,
            ~wide_next & ~wide_prev,
        )
        self.order = torch.cat([torch.nonzero(part).squeeze(1) for part in parts])
        self.inverse = torch.argsort(self.order)
        sizes = [int(part.sum()) for part in parts]
        self.n_tags = C
        self.n_wide = sizes[0] + sizes[1]
        self.prev_slice = slice(sizes[0], sizes[0] + sizes[1] + sizes[2])
        ordered = values[self.order][:, self.order]
        ordered_allowed = allowed[self.order][:, self.order]
        self.block = ordered[self.prev_slice, : self.n_wide].contiguous()  # (P, N)
        self.block_best = self.block.amax(0) if self.block.numel() else self.block.new_zeros(0)
        narrow = ordered_allowed[:, self.n_wide :].T  # (narrow next, C)
        width = max(1, int(narrow.sum(1).max())) if narrow.shape[0] else 1
        # each narrow tag's previous tags first (a stable sort of allowed before forbidden)
        firsts = torch.sort((~narrow).to(torch.uint8), dim=1, stable=True).indices[:, :width]
        self.narrow_prev = firsts.contiguous()  # (narrow next, width)
        narrow_next = torch.arange(self.n_wide, C, device=values.device)[:, None]
        self.narrow_values = ordered.T[narrow_next, self.narrow_prev].masked_fill(
            ~narrow.gather(1, self.narrow_prev), float("-inf")
        )
        #: floats a max-plus step sums per row (the block's pairs and the narrow ones)
        self.row_floats = self.block.numel() + self.narrow_values.numel()
        self._arrays: Optional[Tuple[numpy.ndarray, ...]] = None

    def reorder(self, scores: Tensor) -> Tensor:
        """Scores over the tags (last dimension) in block order."""
        return scores.index_select(-1, self.order)

    def restore(self, scores: Tensor) -> Tensor:
        """Scores in block order back in the original tag order."""
        return scores.index_select(-1, self.inverse)

    def max_plus(self, prev: Tensor) -> Tensor:
        """(n, C) -> (n, C), block order: out[:, j] = max_i prev[:, i] + values[i, j]."""
        out = prev.new_empty(prev.shape[0], self.n_tags)
        if self.n_wide:
            out[:, : self.n_wide] = self._block_max_plus(prev[:, self.prev_slice])
        if self.n_wide < self.n_tags:
            narrow = prev[:, self.narrow_prev] + self.narrow_values
            out[:, self.n_wide :] = narrow.amax(dim=2)
        return out

    def max_plus_numpy(self, prev: numpy.ndarray) -> numpy.ndarray:
        """`max_plus` in NumPy on the CPU (a few rows: no torch operation overheads); the
        same sums and maxima."""
        if self._arrays is None:
            self._arrays = (
                self.block.T.contiguous().numpy(),  # (next, previous)
                self.narrow_prev.numpy(),
                self.narrow_values.numpy(),
            )
        block_t, narrow_prev, narrow_values = self._arrays
        out = numpy.empty((prev.shape[0], self.n_tags), dtype=prev.dtype)
        if self.n_wide:
            out[:, : self.n_wide] = (prev[:, None, self.prev_slice] + block_t).max(axis=2)
        if self.n_wide < self.n_tags:
            out[:, self.n_wide :] = (prev[:, narrow_prev] + narrow_values).max(axis=2)
        return out

    def _block_max_plus(self, prev: Tensor) -> Tensor:
        n, P = prev.shape
        if P <= PRUNE_K + 1 or n * P * self.n_wide <= SMALL_STEP_FLOATS or prev.is_cuda:
            return self._dense_max_plus(prev)
        top, which = prev.topk(PRUNE_K + 1, dim=1)
        best = (top[:, :PRUNE_K, None] + self.block[which[:, :PRUNE_K]]).amax(dim=1)
        # any other previous tag scores at most the (K+1)-th best plus its column's best
        unsure = (top[:, PRUNE_K:] + self.block_best > best).any(dim=1)
        if bool(unsure.any()):
            rows = torch.nonzero(unsure).squeeze(1)
            best[rows] = self._dense_max_plus(prev[rows])
        return best

    def _dense_max_plus(self, prev: Tensor) -> Tensor:
        n, P = prev.shape
        out = prev.new_empty(n, self.n_wide)
        limit = GPU_CHUNK_FLOATS if prev.is_cuda else DENSE_CHUNK_FLOATS
        step = max(1, limit // max(1, P * self.n_wide))
        for start in range(0, n, step):
            chunk = prev[start : start + step]
            out[start : start + step] = (chunk[:, :, None] + self.block).amax(dim=1)
        return out

    def sum_product(self, prev: Tensor, exp_block: Tensor, exp_narrow: Tensor) -> Tensor:
        """(n, C) -> (n, C), block order: out[:, j] = sum_i prev[:, i] * exp(values[i, j]),
        given the block's and the narrow part's exponentiated scores (`exponentiated`)."""
        out = prev.new_empty(prev.shape[0], self.n_tags)
        if self.n_wide:
            out[:, : self.n_wide] = prev[:, self.prev_slice] @ exp_block
        if self.n_wide < self.n_tags:
            out[:, self.n_wide :] = (prev[:, self.narrow_prev] * exp_narrow).sum(dim=2)
        return out

    def sum_product_back(self, nxt: Tensor, exp_block: Tensor, exp_narrow: Tensor) -> Tensor:
        """(n, C) -> (n, C), block order: out[:, i] = sum_j exp(values[i, j]) * nxt[:, j]."""
        out = torch.zeros_like(nxt)
        if self.n_wide:
            out[:, self.prev_slice] = nxt[:, : self.n_wide] @ exp_block.T
        if self.n_wide < self.n_tags:
            contributions = nxt[:, self.n_wide :, None] * exp_narrow  # (n, narrow, width)
            out.index_add_(1, self.narrow_prev.reshape(-1), contributions.reshape(len(nxt), -1))
        return out

    def exponentiated(self, shift: Tensor, dtype: torch.dtype) -> Tuple[Tensor, Tensor]:
        """exp(values - shift) of the block and of the narrow part (0 where forbidden)."""
        return (
            torch.exp(self.block.to(dtype) - shift),
            torch.exp(self.narrow_values.to(dtype) - shift),
        )
