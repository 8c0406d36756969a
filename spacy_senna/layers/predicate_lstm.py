"""A BiLSTM scorer for SRL (not in SENNA: the deep BiLSTM-CRF of Zhou & Xu 2015), a drop-in
for the sentence network: the same rows, one per (sentence, predicate), the same CRF.

Each word of a row reads its own features, the features of the predicate and its
neighbours (`window_size` words centred on the predicate, Zhou & Xu's ctx-p) and an
embedding of its distance to the predicate (0 marks the predicate itself). A stack of
bidirectional LSTMs runs over the row, then Linear (-> HardTanh -> Linear with a hidden
layer) gives each word's tag scores. A row costs O(T), where the sentence network's max
over positions costs O(T x reach).
"""

import torch
from torch import Tensor, nn

from .lookup_spec import LookupSpec
from .predicate_rows import distance_table, row_lstms, row_scores
from .settings import check_window_size


class PredicateLSTMNetwork(nn.Module):
    """Lookups + predicate context + distance -> BiLSTM layers -> (hidden ->) tag scores.

    :param lookup: its lookup tables, character CNNs and shared word table.
    :param window_size: words of predicate context (odd; 1 = the predicate alone).
    :param lstm_width: units per direction of each BiLSTM layer.
    :param lstm_depth: BiLSTM layers, each reading the one below (dropout between).
    :param hidden_width: a HardTanh layer before the output (0 = none: Zhou & Xu).
    :param distance_width: width of the distance-to-predicate lookup table.
    :param max_distance: distances are clipped to +-max_distance.

    *Shape:* flat ids ``(n_rows, K)``, sentence index ``(S, T)``, row sentence ``(R,)``,
    row predicate ``(R,)``, row lengths ``(R,)`` -> scores ``(R, T, n_tags)``
    """

    def __init__(
        self,
        *,
        lookup: LookupSpec,
        n_tags: int,
        window_size: int = 3,
        lstm_width: int = 100,
        lstm_depth: int = 2,
        hidden_width: int = 0,
        distance_width: int = 5,
        max_distance: int = 30,
        dropout: float = 0.0,
    ):
        super().__init__()
        check_window_size(window_size)
        if lstm_width < 1 or lstm_depth < 1:
            raise ValueError(
                f"lstm_width and lstm_depth must be positive, got {lstm_width} and {lstm_depth}"
            )
        if max_distance < 1:
            raise ValueError(f"max_distance must be at least 1, got {max_distance}")
        self.lookup = lookup.build()
        self.half_window = window_size // 2
        self.max_distance = max_distance
        self.n_tags = n_tags
        self.distance = distance_table(max_distance, distance_width)
        width = self.lookup.width * (1 + window_size) + distance_width
        self.layers, width = row_lstms(width, lstm_width, lstm_depth)
        self.hidden = nn.Linear(width, hidden_width) if hidden_width else None
        self.dropout = nn.Dropout(dropout)
        self.output = nn.Linear(hidden_width or width, n_tags)

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
        x = self.lookup(flat_ids)  # (n_rows, width): sentences end to end, padding between
        token_rows = sentence_index[row_sentence] + self.half_window  # (R, T) rows of x
        return row_scores(
            x,
            token_rows,
            row_predicate,
            row_lengths,
            self.half_window,
            self.distance,
            self.layers,
            self.dropout,
            self.hidden,
            self.output,
        )
