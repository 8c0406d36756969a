"""SENNA's sentence approach network for SRL (paper §3.3.2, Figures 2-3; §9).

One row per (sentence, predicate). Every word w of the row is scored from the whole
sentence: each position t gets its lookup features plus its distance to the predicate
(t - pos_v) and to the word being tagged (t - pos_w); a convolution over window-size
positions, max over t, Linear -> HardTanh -> Linear gives the scores of word w.

The convolution is linear, so it is split into three exact blocks (SENNA's speed trick):
the word features are convolved once per sentence, and each distance block once per
clipped offset into a table that rows and words then index. Clipping also makes the
max over t linear per row (prefix/suffix maxima beyond the clipping distance), so a
(sentence, predicate) row costs O(T x units) and a sentence with O(T) predicates
O(T^2); the max runs in row blocks of bounded memory and backpropagates by scattering
into the winning positions. Batch padding costs nothing: the max runs on length-sorted
row blocks cut to their own longest row, and the layers after it see real words only.
"""

import math
from typing import Optional, Tuple

import torch
from torch import Tensor, nn

from .lookup_spec import LookupSpec
from .precision import check_inference_dtype, dense
from .settings import check_window_size

#: floats in one (rows, n, n, units) sum of the short-row max: about an L2 cache
_CACHE_FLOATS = 1 << 18


class _MaxOverPositions(torch.autograd.Function):
    """out[r, w] = max_{t < n_r} (rows[r, t] + table[clip(t - w, -reach, reach) + reach]),
    per unit, for w < n_r (positions w >= n_r are left at 0).

    Offsets are clipped, so every t at least `reach` left of w meets the same table row,
    and so does every t at least `reach` right of it: those two maxima are prefix and
    suffix maxima of the row, and only the 2 * reach - 1 offsets in between are added
    one by one. A row costs O(n * reach * units) instead of O(n^2 * units), and the
    result is the same float for float (adding a constant commutes with the max).
    Rows are processed shortest first in blocks of at most `max_elements` row positions
    x units, each block cut to its own longest row, so batch padding costs nothing; a
    block of rows no longer than 2 * reach takes the max over all its positions at once
    instead (fewer elements than the offsets), a few cache-sized rows at a time.
    """

    @staticmethod
    def forward(
        ctx,
        rows: Tensor,
        table: Tensor,
        lengths: Tensor,
        reach: int,
        max_elements: int,
        track: bool = True,
    ):
        R, T, C = rows.shape
        values = rows.new_zeros(R, T, C)
        shape = (R, T, C) if track else (0, T, C)  # positions are kept for the gradient only
        argmax = torch.zeros(shape, dtype=torch.long, device=rows.device)
        order = torch.argsort(lengths)
        sorted_lengths = lengths[order].tolist()
        i = 0
        while i < R:
            j = i + 1
            while j < R and (j + 1 - i) * sorted_lengths[j] * C <= max_elements:
                j += 1
            n = sorted_lengths[j - 1]
            block = order[i:j]
            if n <= 2 * reach:  # short rows: one fused add + max over all positions is faster
                best, where = _max_block_quadratic(rows[block, :n], table, reach, track)
            else:
                best, where = _max_block(rows[block, :n], table, reach, track)
            values[block, :n] = best
            if track:
                argmax[block, :n] = where
            i = j
        padding = torch.arange(T, device=rows.device)[None, :] >= lengths[:, None]
        values.masked_fill_(padding[:, :, None], 0.0)
        ctx.save_for_backward(argmax, lengths)
        ctx.reach = reach
        ctx.table_rows = table.shape[0]
        return values

    @staticmethod
    def backward(ctx, grad: Tensor):
        argmax, lengths = ctx.saved_tensors
        R, T, C = argmax.shape
        padding = torch.arange(T, device=grad.device)[None, :] >= lengths[:, None]
        grad = grad.masked_fill(padding[:, :, None], 0.0).contiguous()
        d_rows = torch.zeros_like(grad).scatter_add_(1, argmax, grad)
        # table row used by (r, w, c): the clipped offset of the winning position from w
        words = torch.arange(T, device=grad.device)[None, :, None]
        used = (argmax - words).clamp_(-ctx.reach, ctx.reach).add_(ctx.reach)
        d_table = grad.new_zeros(ctx.table_rows, C).scatter_add_(
            0, used.reshape(-1, C), grad.reshape(-1, C)
        )
        return d_rows, d_table, None, None, None, None


def _max_block_quadratic(
    x: Tensor, table: Tensor, reach: int, track: bool
) -> Tuple[Tensor, Optional[Tensor]]:
    """`_MaxOverPositions` for a block of short rows: every (word, position) pair at
    once, a few rows at a time so that each (rows, n, n, units) sum stays cache-sized
    (one large sum is memory-bound and several times slower). Without `track` only the
    maxima are taken (`amax`: no indices, the fastest reduction); with it the sum is
    laid out positions-last, where max-with-indices is fastest."""
    b, n, C = x.shape
    positions = torch.arange(n, device=x.device)
    by_word = table[(positions[None, :] - positions[:, None]).clamp(-reach, reach) + reach]
    step = max(1, _CACHE_FLOATS // (n * n * C))
    if not track:
        best = [torch.amax(x[r : r + step, None] + by_word[None], dim=2) for r in range(0, b, step)]
        return torch.cat(best), None
    x_t, by_word_t = x.transpose(1, 2), by_word.transpose(1, 2)  # (b, C, n), (n, C, n)
    best, where = [], []
    for r in range(0, b, step):
        values, at = torch.max(x_t[r : r + step, None] + by_word_t[None], dim=3)
        best.append(values)
        where.append(at)
    return torch.cat(best), torch.cat(where)


def _max_block(
    x: Tensor, table: Tensor, reach: int, track: bool
) -> Tuple[Tensor, Optional[Tensor]]:
    """`_MaxOverPositions` for a block x (rows, n, C): the maxima, and their positions
    when `track` (needed for the gradient only)."""
    b, n, C = x.shape
    best = x.new_full((b, n, C), float("-inf"))
    where = torch.zeros(b, n, C, dtype=torch.long, device=x.device) if track else None

    def offer(lo: int, hi: int, candidate: Tensor, position: Tensor) -> None:
        # in place: a training step makes ~2 * reach offers of (rows, n, C) each
        current = best[:, lo:hi]
        if where is not None:
            chosen = where[:, lo:hi]
            torch.where(candidate > current, position, chosen, out=chosen)
        torch.maximum(current, candidate, out=current)

    near = min(reach, n)
    shifted = torch.empty_like(x)  # reused buffer for x shifted by an offset, plus its row
    for d in range(-(near - 1), near):  # t = w + d, each offset its own table row
        lo, hi = max(0, -d), min(n, n - d)
        if lo < hi:
            positions = torch.arange(lo + d, hi + d, device=x.device)[None, :, None]
            candidate = torch.add(x[:, lo + d : hi + d], table[d + reach], out=shifted[:, lo:hi])
            offer(lo, hi, candidate, positions)
    if n > reach:
        prefix, prefix_at = torch.cummax(x, dim=1)  # max over t <= j
        offer(reach, n, prefix[:, : n - reach] + table[0], prefix_at[:, : n - reach])
        suffix, suffix_at = torch.cummax(x.flip(1), dim=1)  # max over t >= j, flipped
        suffix, suffix_at = suffix.flip(1), (n - 1 - suffix_at).flip(1)
        offer(0, n - reach, suffix[:, reach:] + table[2 * reach], suffix_at[:, reach:])
    return best, where


class SentenceNetwork(nn.Module):
    """Lookups + distance features -> convolution -> max over time -> Linear -> HardTanh
    -> Linear(n_tags), for every word of every (sentence, predicate) row.

    :param lookup: its lookup tables, character CNNs and shared word table.
    :param conv_width: convolution units n^1_hu (paper: 300).
    :param hidden_width: units after the max, n^2_hu (paper: 500).
    :param distance_width: width of the two distance lookup tables (not in the paper: 5).
    :param max_distance: distances are clipped to +-max_distance (SENNA clips; value ours).
    :param max_block_elements: bound on the (rows, T, units) block of the max.
    :param inference_dtype: "bfloat16" runs the convolution and the hidden layer in
        bfloat16 at inference, on a CPU that computes it natively (see `precision`).

    *Shape:* flat ids ``(n_rows, K)``, sentence index ``(S, T)``, row sentence ``(R,)``,
    row predicate ``(R,)``, row lengths ``(R,)`` -> scores ``(R, T, n_tags)``
    """

    def __init__(
        self,
        *,
        lookup: LookupSpec,
        n_tags: int,
        window_size: int = 5,
        conv_width: int = 300,
        hidden_width: int = 500,
        distance_width: int = 5,
        max_distance: int = 30,
        dropout: float = 0.0,
        max_block_elements: int = 1 << 22,
        inference_dtype: str = "float32",
    ):
        super().__init__()
        check_window_size(window_size)
        if max_distance < 1:
            raise ValueError(f"max_distance must be at least 1, got {max_distance}")
        self.inference_dtype = check_inference_dtype(inference_dtype)
        self.lookup = lookup.build()
        self.half_window = window_size // 2
        self.max_distance = max_distance
        self.max_block_elements = max_block_elements
        self.n_tags = n_tags
        n_offsets = 2 * max_distance + 1
        self.verb_distance = nn.Embedding(n_offsets, distance_width)
        self.word_distance = nn.Embedding(n_offsets, distance_width)
        self.conv = nn.Conv1d(self.lookup.width, conv_width, window_size)
        self.verb_conv = nn.Parameter(torch.empty(conv_width, distance_width, window_size))
        self.word_conv = nn.Parameter(torch.empty(conv_width, distance_width, window_size))
        # one convolution over the concatenated inputs, fan-in = window x input width
        bound = 1.0 / math.sqrt(window_size * (self.lookup.width + 2 * distance_width))
        for weight in (self.conv.weight, self.conv.bias, self.verb_conv, self.word_conv):
            nn.init.uniform_(weight, -bound, bound)
        for table in (self.verb_distance, self.word_distance):
            nn.init.uniform_(table.weight, -1.0, 1.0)
        self.hidden = nn.Linear(conv_width, hidden_width)
        self.dropout = nn.Dropout(dropout)
        self.output = nn.Linear(hidden_width, n_tags)

    def offset_table(self, table: nn.Embedding, weight: Tensor) -> Tensor:
        """(2 * (max_distance + half_window) + 1, conv_width): the distance block of the
        convolution centred at offset d from the anchor, for every d that clipping
        distinguishes (pads continue the distances, as in SENNA)."""
        h, m = self.half_window, self.max_distance
        reach = m + h
        device = weight.device
        offsets = torch.arange(-reach, reach + 1, device=device)[:, None]
        window = torch.arange(-h, h + 1, device=device)[None, :]
        ids = (offsets + window).clamp(-m, m) + m  # (D, window)
        return torch.einsum("dkc,ock->do", table(ids), weight)

    def _offset_ids(self, offsets: Tensor) -> Tensor:
        reach = self.max_distance + self.half_window
        return offsets.clamp(-reach, reach) + reach

    def forward(
        self,
        flat_ids: Tensor,
        sentence_index: Tensor,
        row_sentence: Tensor,
        row_predicate: Tensor,
        row_lengths: Tensor,
    ) -> Tensor:
        R = row_sentence.shape[0]
        T = sentence_index.shape[1]
        if R == 0 or T == 0:
            return torch.zeros(R, T, self.n_tags, device=flat_ids.device)
        x = self.lookup(flat_ids).T[None]  # (1, width, n_rows)
        words = dense(self.conv, x, self.inference_dtype)[0].T[sentence_index]  # (S, T, C)
        positions = torch.arange(T, device=flat_ids.device)
        verb = self.offset_table(self.verb_distance, self.verb_conv)
        rows = (
            words[row_sentence] + verb[self._offset_ids(positions[None] - row_predicate[:, None])]
        )
        padding = positions[None, :] >= row_lengths[:, None]
        rows = rows.masked_fill(padding[:, :, None], float("-inf"))
        word = self.offset_table(self.word_distance, self.word_conv)
        reach = self.max_distance + self.half_window
        track = torch.is_grad_enabled() and (rows.requires_grad or word.requires_grad)
        pooled = _MaxOverPositions.apply(
            rows, word, row_lengths, reach, self.max_block_elements, track
        )  # (R, T, C)
        real = ~padding
        hidden = dense(self.hidden, pooled[real], self.inference_dtype, hardtanh=True)
        scores = self.output(self.dropout(hidden))
        return scores.new_zeros(R, T, self.n_tags).masked_scatter(real[:, :, None], scores)
