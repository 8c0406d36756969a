"""The parser with each sentence encoded once (not in SENNA): a BiLSTM encoder per
sentence, shared by all of its levels, and a light BiLSTM head per level copy.

The window network under `configs/plus/parser-plus.cfg` runs its whole network, BiLSTM
included, once per level copy, though only the level column changes from one level to the
next. Here the encoder reads each distinct sentence of a batch once, without the levels
(in training every level copy of a sentence is in the same batch); each level copy then
reads a narrow projection of those states and a window of its level tags (the tags of the
levels below, SENNA's PSG input) through `head_depth` small BiLSTM layers, and scores the
tags. The CRF and the component are those of the window network.
"""

from typing import List, Sequence

import torch
from torch import Tensor, nn

from .lookup_spec import LookupSpec
from .precision import check_inference_dtype
from .predicate_rows import packed_row_scores, row_lstms
from .recurrent import packed_order, sentence_encoder
from .settings import check_positive, check_window_size


class LevelHeadsNetwork(nn.Module):
    """Word lookups -> sentence BiLSTMs (once per distinct sentence) -> projection -> per
    level copy: [projection, window of level tags] -> head BiLSTMs -> (hidden ->) tag
    scores.

    :param lookup: its lookup tables, character CNNs and shared word table.
    :param level_tables: per lookup table, whether it embeds a level feature (its ids
        change from one level copy to the next); the others are the sentence's.
    :param window_size: level tags each word reads (odd, centred on the word).
    :param lstm_width: units per direction of each sentence BiLSTM layer.
    :param lstm_depth: sentence BiLSTM layers.
    :param projection_width: width of the projection of the sentence states a head reads.
    :param head_width: units per direction of each head BiLSTM layer.
    :param head_depth: head BiLSTM layers.
    :param hidden_width: a HardTanh layer before the output (0 = none).
    :param inference_dtype: "bfloat16" runs the hidden and output layers in bfloat16 at
        inference where the CPU computes it natively (`precision.dense`).

    *Shape:* sentence ids ``(n_rows, K_s)`` and index ``(S, T)`` (the distinct sentences
    end to end, `flatten_windows`), level ids ``(n_level_rows, K_l)`` and index ``(R, T)``
    (every level copy), each copy's sentence and length ``(R,)`` -> scores
    ``(R, T, n_tags)`` (padding positions score 0)
    """

    def __init__(
        self,
        *,
        lookup: LookupSpec,
        n_tags: int,
        level_tables: Sequence[bool],
        window_size: int = 5,
        lstm_width: int = 200,
        lstm_depth: int = 2,
        projection_width: int = 100,
        head_width: int = 100,
        head_depth: int = 1,
        hidden_width: int = 300,
        dropout: float = 0.0,
        inference_dtype: str = "float32",
    ):
        super().__init__()
        check_window_size(window_size)
        check_positive(
            lstm_width=lstm_width,
            lstm_depth=lstm_depth,
            projection_width=projection_width,
            head_width=head_width,
            head_depth=head_depth,
        )
        if len(level_tables) != len(lookup.table_sizes):
            raise ValueError("LevelHeadsNetwork needs one level_tables flag per lookup table")
        if not any(level_tables):
            raise ValueError("LevelHeadsNetwork reads no level feature (level_tables)")
        words, levels = lookup.split(level_tables)
        self.words = words.build()
        self.levels = levels.build()
        self.half_window = window_size // 2
        self.n_tags = n_tags
        self.inference_dtype = check_inference_dtype(inference_dtype)
        self.encoder, width = sentence_encoder(self.words.width, lstm_width, lstm_depth)
        self.projection = nn.Linear(width, projection_width)
        width = projection_width + window_size * self.levels.width
        self.heads, width = row_lstms(width, head_width, head_depth)
        self.hidden = nn.Linear(width, hidden_width) if hidden_width else None
        self.dropout = nn.Dropout(dropout)
        self.output = nn.Linear(hidden_width or width, n_tags)

    def forward(
        self,
        sentence_ids: Tensor,
        sentence_index: Tensor,
        level_ids: Tensor,
        level_index: Tensor,
        row_sentence: Tensor,
        row_lengths: Tensor,
    ) -> Tensor:
        R, T = level_index.shape
        if R == 0 or T == 0:
            return torch.zeros(R, T, self.n_tags, device=level_ids.device)
        sentence_lengths = row_lengths.new_zeros(len(sentence_index))
        sentence_lengths.scatter_(0, row_sentence, row_lengths)
        words = self.encode(sentence_ids, sentence_index, sentence_lengths)
        token_rows = (sentence_index + self.half_window)[row_sentence]
        return self.score_levels(words, token_rows, level_ids, level_index, row_lengths)

    def encode(self, sentence_ids: Tensor, sentence_index: Tensor, lengths: Tensor) -> Tensor:
        """The projected sentence states (n_rows, projection_width) of every row of
        `sentence_ids` (sentences end to end, `flatten_windows`; `lengths` (S,))."""
        states = self.words(sentence_ids)
        sentence_rows = sentence_index + self.half_window  # (S, T) each token's row
        for layer in self.encoder:
            states = layer(self.dropout(states), sentence_rows, lengths)
        return self.projection(self.dropout(states))

    def score_levels(
        self,
        words: Tensor,
        token_rows: Tensor,
        level_ids: Tensor,
        level_index: Tensor,
        row_lengths: Tensor,
    ) -> Tensor:
        """(R, T, n_tags) scores of the level copies: each reads its sentence's projected
        states (`words` at `token_rows` (R, T)) and its window of level tags."""
        R, T = level_index.shape
        if R == 0 or T == 0:
            return torch.zeros(R, T, self.n_tags, device=level_ids.device)
        h = self.half_window
        levels = self.levels(level_ids)  # (n_level_rows, level width)
        around = torch.arange(-h, h + 1, device=levels.device)
        window = levels[(level_index + h)[..., None] + around].reshape(R, T, -1)
        inputs = torch.cat([words[token_rows], window], dim=2)
        return self._head_scores(inputs, row_lengths)

    def _head_scores(self, inputs: Tensor, row_lengths: Tensor) -> Tensor:
        """(R, T, n_tags) scores of the rows' `inputs` (R, T, width): the head LSTMs read
        each row's real positions packed; padding positions score 0."""
        R, T, _ = inputs.shape
        cells = torch.arange(R * T, device=inputs.device).reshape(R, T)
        packed_cells, batch_sizes = packed_order(cells, row_lengths.cpu())
        out = inputs.reshape(R * T, -1)[packed_cells]
        return packed_row_scores(
            out,
            packed_cells,
            batch_sizes,
            (R, T),
            self.heads,
            self.dropout,
            self.hidden,
            self.output,
            self.inference_dtype,
        )


def level_table_flags(column_flags: Sequence[bool], n_tables: int) -> List[bool]:
    """Per lookup table, whether it embeds a level feature, from the featurizer's per-column
    flags (the tables' columns come first); a ValueError when a level feature has columns
    past the tables (a character or shared word feature cannot be a level feature)."""
    if any(column_flags[n_tables:]):
        raise ValueError(
            "A level feature must be a lookup-table feature (e.g. spacy-senna.SpanTagFeature.v1), "
            "not a character or shared word feature."
        )
    return [bool(flag) for flag in column_flags[:n_tables]]
