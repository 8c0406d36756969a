"""A character CNN's encoding of a few new words at inference on the CPU as one compiled
loop (Numba): PyTorch's path (the per-character tables, a masked gather per window
offset, a segmented max) costs about 300 us whatever the number of words, most of a
text's cost when it holds a word not seen before.

The numbers are the PyTorch path's bit for bit: each real position's sum runs in its
order (offset 0 first, from +0.0, then the bias), and the maximum over a word's
positions is exact in any order.
"""

from typing import Optional

import numpy
import torch
from torch import Tensor

from ..runtime.compiled import njit
from .lexicon import PADDING


def compiled_encodings(cnn, words: Tensor) -> Optional[Tensor]:
    """(n, width): `cnn`'s encoding of each row of character ids `words` (n, columns),
    as `CharCNN.encode` gives it, from its kept tables (`CharCNN.table_arrays`); None
    where the compiled loop does not apply (training, a GPU, another dtype, an id outside
    the character table: PyTorch's path then runs, with its errors)."""
    if torch.is_grad_enabled() or words.device.type != "cpu" or words.dtype != torch.int64:
        return None
    if cnn.embed.weight.dtype != torch.float32 or cnn.conv.weight.dtype != torch.float32:
        return None
    tables, bias, padding = cnn.table_arrays()
    out = numpy.empty((len(words), len(bias)), dtype=numpy.float32)
    if not encode_words(numpy.ascontiguousarray(words.numpy()), tables, bias, padding, out):
        return None
    return torch.from_numpy(out)


@njit(cache=True, nogil=True)
def encode_words(words, tables, bias, padding, out):
    """Fill out[w] with word w's encoding: per real (non-PADDING) position p, bias +
    (((+0.0 + tables[0][c(p - h)]) + tables[1][c(p - h + 1)]) + ...) with PADDING
    beyond the row's ends, then the maximum over the positions; a word without real
    positions gets `padding`. False (out unfinished) on an id outside the tables."""
    n, length = words.shape
    window, n_chars, width = tables.shape
    half = window // 2
    for w in range(n):
        for j in range(length):
            if words[w, j] < 0 or words[w, j] >= n_chars:
                return False
    hidden = numpy.empty(width, dtype=numpy.float32)
    for w in range(n):
        seen = False
        for p in range(length):
            if words[w, p] == PADDING:
                continue
            for f in range(width):
                hidden[f] = numpy.float32(0.0)
            for k in range(window):
                at = p + k - half
                char = words[w, at] if 0 <= at < length else PADDING
                for f in range(width):
                    hidden[f] += tables[k, char, f]
            for f in range(width):
                value = bias[f] + hidden[f]
                if not seen or value > out[w, f]:
                    out[w, f] = value
            seen = True
        if not seen:
            for f in range(width):
                out[w, f] = padding[f]
    return True
