"""A character CNN word encoder (Ma & Hovy 2016, Chiu & Nichols 2016): each word's
characters -> embeddings -> 1-D convolution -> max over the word's characters."""

import math
from typing import Iterator, NamedTuple, Tuple

import numpy
import torch
from torch import Tensor, nn

from .char_cnn_compiled import compiled_encodings
from .kept_copies import kept_copy
from .kept_encodings import KeptEncodings
from .lexicon import PADDING
from .watched_tensors import Source, WatchedTensors

# two primes below 2**31 and per-column multipliers below 2**20: a row's two hashes fit
# one int64 key, and no product or sum overflows for character ids below 2**21
_HASH_MODULI = (2_147_483_647, 2_147_483_629)
_HASH_MULTIPLIERS = torch.randint(1, 1 << 20, (2, 1024), generator=torch.Generator().manual_seed(0))


class CharCNNSpec(NamedTuple):
    """The layout of one character CNN: what the feature side tells the network."""

    n_columns: int  # id columns per word (characters, word-boundary marks, PADDING after)
    n_chars: int  # rows of the character table (PADDING = 0 and UNKNOWN = 1 included)
    char_width: int  # character embedding width
    width: int  # convolution filters = output width
    window: int  # characters per convolution window (odd)


class CharCNN(nn.Module):
    """Character ids of words -> one vector per word: embed, convolve (`window` characters,
    zero-padded at both ends), max over the word's real (non-PADDING) positions.

    A row holds a word's character ids from column 0 on, then PADDING; a row of PADDING
    only (the window network's sentence padding) gets the learned `padding` vector.

    Two exact speed-ups: the network runs once per distinct row of the batch (the result
    is indexed back to every occurrence), and the convolution, linear in the embeddings,
    is computed as `window` per-character tables (embedding x filter slice, tiny) that
    each real position indexes, so no work is spent on padding positions. At inference on
    a CPU each distinct word is encoded once and kept (`KeptEncodings`, which finds a
    batch's rows by their ids' bytes): the same numbers, gathered; the words it lacks
    are encoded by one compiled loop (`char_cnn_compiled`), again the same numbers.

    *Shape:* ids ``(..., n_columns)`` -> ``(..., width)``
    """

    def __init__(self, spec: CharCNNSpec):
        super().__init__()
        if spec.window < 1 or spec.window % 2 == 0:
            raise ValueError(f"The character window must be odd and positive, got {spec.window}")
        for name in ("n_columns", "n_chars", "char_width", "width"):
            if getattr(spec, name) < 1:
                raise ValueError(f"CharCNN needs {name} >= 1, got {getattr(spec, name)}")
        self.n_columns = spec.n_columns
        self.width = spec.width
        self.embed = nn.Embedding(spec.n_chars, spec.char_width, padding_idx=PADDING)
        bound = math.sqrt(3.0 / spec.char_width)  # Ma & Hovy's character embedding init
        nn.init.uniform_(self.embed.weight, -bound, bound)
        with torch.no_grad():
            self.embed.weight[PADDING].zero_()
        self.conv = nn.Conv1d(spec.char_width, spec.width, spec.window, padding=spec.window // 2)
        self.padding = nn.Parameter(torch.zeros(spec.width))
        self.kept = KeptEncodings()
        self.watched = WatchedTensors()

    def forward(self, ids: Tensor) -> Tensor:
        if ids.shape[-1] != self.n_columns:
            raise ValueError(
                f"CharCNN expects {self.n_columns} character columns per word, got {ids.shape[-1]}"
            )
        rows = ids.reshape(-1, self.n_columns)
        if not torch.is_grad_enabled() and rows.device.type == "cpu":
            encoded = self.kept.encodings(rows, self._encode_new, self.weight_versions())
            return encoded.reshape(*ids.shape[:-1], self.width)
        self.kept.clear()  # training: the weights are about to change
        return self._encode_rows(rows).reshape(*ids.shape[:-1], self.width)

    def _encode_new(self, rows: Tensor) -> Tensor:
        """The encodings of the distinct rows a store lacks: one compiled loop at
        inference on the CPU (`char_cnn_compiled`, the same numbers), else `_encode_rows`."""
        encoded = compiled_encodings(self, rows)
        return encoded if encoded is not None else self._encode_rows(rows)

    def _encode_rows(self, rows: Tensor) -> Tensor:
        """(n, width): each row's encoding, the network run once per distinct row."""
        used = (rows != PADDING).any(dim=0).nonzero()
        if not len(used):  # nothing but padding rows (or no rows)
            return self.padding.expand(len(rows), self.width)
        words, inverse = distinct_rows(rows[:, : int(used[-1]) + 1])
        return self.encode(words)[inverse]

    def table_arrays(self) -> Tuple[numpy.ndarray, numpy.ndarray, numpy.ndarray]:
        """`character_tables`, the bias and the padding vector as float32 arrays, made
        again only when a weight moves (`kept_copy`), for the compiled encoding."""
        sources = (getattr(module, name) for module, name in self.weight_sources())
        return kept_copy("character tables", _table_arrays, *sources)

    def weight_versions(self) -> tuple:
        """The version of every tensor an encoding reads (in-place changes move them)."""
        return self.watched.versions(self.weight_sources)

    def weight_sources(self) -> Iterator[Source]:
        """The tensors an encoding reads, by module and name, in `_table_arrays`' order."""
        yield self.embed, "weight"
        yield self.conv, "weight"
        yield self.conv, "bias"
        yield self, "padding"

    def encode(self, words: Tensor) -> Tensor:
        """(n_words, width): the max-pooled convolution of each row of character ids."""
        length = words.shape[1]
        real = words != PADDING
        window = self.conv.kernel_size[0]
        half = window // 2
        tables = character_tables(self.embed.weight, self.conv.weight)
        padded = nn.functional.pad(words, (half, half), value=PADDING)
        hidden = self.conv.bias + sum(
            tables[k][padded[:, k : k + length][real]] for k in range(window)
        )  # (real positions, width), row by row
        lengths = real.sum(dim=1)
        pooled = torch.segment_reduce(hidden, "max", lengths=lengths)
        return torch.where((lengths == 0)[:, None], self.padding, pooled)


def character_tables(embeddings: Tensor, conv_weight: Tensor) -> Tensor:
    """(window, characters, width): tables[k][c] is what character c adds at offset
    k - window // 2 of a window's centre (the PADDING row adds nothing)."""
    padding_row = torch.tensor([PADDING], device=embeddings.device)
    embeddings = embeddings.index_fill(0, padding_row, 0.0)
    return torch.einsum("cd,fdk->kcf", embeddings, conv_weight)


def _table_arrays(
    embeddings: Tensor, conv_weight: Tensor, bias: Tensor, padding: Tensor
) -> Tuple[numpy.ndarray, numpy.ndarray, numpy.ndarray]:
    tables = character_tables(embeddings, conv_weight)
    return tuple(numpy.ascontiguousarray(t.numpy()) for t in (tables, bias, padding))


def distinct_rows(rows: Tensor) -> Tuple[Tensor, Tensor]:
    """(distinct rows in no particular order, inverse) with rows == distinct[inverse], as
    `torch.unique(rows, dim=0, return_inverse=True)` gives but faster: each row is hashed
    to one int64 key and the result is checked (a collision falls back to torch.unique)."""
    n, length = rows.shape
    if length > _HASH_MULTIPLIERS.shape[1] or bool((rows >= 1 << 21).any()):
        return torch.unique(rows, dim=0, return_inverse=True)
    multipliers = _HASH_MULTIPLIERS[:, :length].to(rows.device)
    first, second = ((rows * m).sum(dim=1) % p for m, p in zip(multipliers, _HASH_MODULI))
    keys, inverse = torch.unique(first * _HASH_MODULI[1] + second, return_inverse=True)
    positions = torch.arange(n, device=rows.device)
    representative = torch.full((len(keys),), n, device=rows.device, dtype=torch.long)
    representative.scatter_reduce_(0, inverse, positions, "amin")
    distinct = rows[representative]
    if not bool((distinct[inverse] == rows).all()):
        return torch.unique(rows, dim=0, return_inverse=True)
    return distinct, inverse
