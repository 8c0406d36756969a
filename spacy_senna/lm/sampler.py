"""The order in which training visits the windows of an encoded corpus."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy

from ..layers.lexicon import PADDING

if TYPE_CHECKING:
    from .corpus import EncodedCorpus


class WindowSampler:
    """Shuffled, resumable pass over all training windows, in bounded memory.

    Each epoch cuts the stream into pieces of `piece_tokens` positions, shuffles them and
    visits them `pieces_per_block` at a time, the positions of a block in random order:
    every real token is the centre of exactly one window per epoch, and every batch mixes
    text from all over the corpus. (Whole 1M-token chunks in turn, the layout before,
    fed ~1,000 batches of one file's text in a row: a chunk of Reuters tables moved the
    model away from everything else and the held-out loss jumped ten-fold.) The orders
    come from (seed, epoch, block), so the state is a few integers.
    """

    def __init__(
        self,
        corpus: EncodedCorpus,
        batch_size: int,
        seed: int,
        piece_tokens: int = 1 << 14,
        pieces_per_block: int = 64,
    ) -> None:
        self.corpus = corpus
        self.batch_size = batch_size
        self.seed = seed
        self._set_layout(piece_tokens, pieces_per_block)
        self.epoch = 0
        self.block = 0
        self.offset = 0
        self.consumed_in_epoch = 0
        self._order: numpy.ndarray | None = None
        self._positions: numpy.ndarray | None = None

    def _set_layout(self, piece_tokens: int, pieces_per_block: int) -> None:
        self.piece_tokens = piece_tokens
        self.pieces_per_block = pieces_per_block
        self.n_pieces = max(1, -(-len(self.corpus.words) // piece_tokens))
        self.n_blocks = -(-self.n_pieces // pieces_per_block)

    def state(self) -> dict[str, int]:
        return {
            "epoch": self.epoch,
            "chunk": self.block,
            "offset": self.offset,
            "consumed_in_epoch": self.consumed_in_epoch,
            "piece_tokens": self.piece_tokens,
            "pieces_per_block": self.pieces_per_block,
        }

    def load_state(self, state: dict[str, int]) -> None:
        # a checkpoint without a layout was written by the one-chunk-at-a-time sampler
        self._set_layout(
            int(state.get("piece_tokens", 1 << 20)), int(state.get("pieces_per_block", 1))
        )
        self.epoch = int(state["epoch"])
        self.block = int(state["chunk"])
        self.offset = int(state["offset"])
        self.consumed_in_epoch = int(state["consumed_in_epoch"])
        self._order = None
        self._positions = None

    def _block_positions(self) -> numpy.ndarray:
        if self._order is None:
            rng = numpy.random.default_rng([self.seed, self.epoch])
            self._order = rng.permutation(self.n_pieces)
        first = self.block * self.pieces_per_block
        pieces = self._order[first : first + self.pieces_per_block]
        size = self.piece_tokens
        n_words = len(self.corpus.words)
        positions = numpy.concatenate(
            [numpy.arange(p * size, min((p + 1) * size, n_words)) for p in pieces.tolist()]
        )
        rng = numpy.random.default_rng([self.seed, self.epoch, int(pieces[0])])
        positions = positions[rng.permutation(len(positions))]
        return positions[numpy.asarray(self.corpus.words[positions]) != PADDING]

    def next_batch(self) -> numpy.ndarray:
        """Centre positions of the next batch (at most `batch_size`; never empty)."""
        while True:
            if self._positions is None:
                self._positions = self._block_positions()
            batch = self._positions[self.offset : self.offset + self.batch_size]
            if len(batch):
                self.offset += len(batch)
                self.consumed_in_epoch += len(batch)
                return batch
            self._positions = None
            self.offset = 0
            self.block += 1
            if self.block >= self.n_blocks:
                self.block = 0
                self.epoch += 1
                self.consumed_in_epoch = 0
                self._order = None
