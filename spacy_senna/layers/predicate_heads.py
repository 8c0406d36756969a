"""SRL with the sentence encoded once (not in SENNA): a BiLSTM encoder per sentence, shared
by all of its predicates, and a light BiLSTM head per (sentence, predicate) row.

`PredicateLSTMNetwork` runs its whole BiLSTM stack once per predicate, so a sentence with
five verbs is encoded five times. Here the stack reads each sentence once, without the
predicate (as the encoders of Cai et al. 2018 and He et al. 2018 do); each row then reads
a narrow projection of those states, the projections of the predicate and its neighbours
(`window_size` words, the ctx-p of Zhou & Xu 2015) and its distance to the predicate,
through `head_depth` small BiLSTM layers, and scores the tags. The rows, the CRF and the
component are those of the other SRL networks.
"""

import torch
from torch import Tensor, nn

from .lookup_spec import LookupSpec
from .predicate_rows import distance_table, row_lstms, row_scores
from .recurrent import sentence_encoder
from .settings import check_positive, check_window_size


class PredicateHeadsNetwork(nn.Module):
    """Lookups -> sentence BiLSTMs (once per sentence) -> projection -> per predicate:
    [word, predicate context, distance] -> head BiLSTMs -> (hidden ->) tag scores.

    :param lookup: its lookup tables, character CNNs and shared word table.
    :param window_size: words of predicate context each row reads (odd, centred).
    :param lstm_width: units per direction of each sentence BiLSTM layer.
    :param lstm_depth: sentence BiLSTM layers.
    :param projection_width: width of the projection of the sentence states a head reads.
    :param head_width: units per direction of each head BiLSTM layer.
    :param head_depth: head BiLSTM layers.
    :param hidden_width: a HardTanh layer before the output (0 = none).
    :param distance_width: width of the distance-to-predicate lookup table.
    :param max_distance: distances are clipped to +-max_distance.

    *Shape:* as `PredicateLSTMNetwork`: flat ids ``(n_rows, K)``, sentence index
    ``(S, T)``, row sentence, row predicate and row lengths ``(R,)`` -> scores
    ``(R, T, n_tags)``
    """

    def __init__(
        self,
        *,
        lookup: LookupSpec,
        n_tags: int,
        window_size: int = 3,
        lstm_width: int = 100,
        lstm_depth: int = 2,
        projection_width: int = 64,
        head_width: int = 100,
        head_depth: int = 1,
        hidden_width: int = 0,
        distance_width: int = 5,
        max_distance: int = 30,
        dropout: float = 0.0,
    ):
        super().__init__()
        check_window_size(window_size)
        check_positive(
            lstm_width=lstm_width,
            lstm_depth=lstm_depth,
            projection_width=projection_width,
            head_width=head_width,
            head_depth=head_depth,
            max_distance=max_distance,
        )
        self.lookup = lookup.build()
        self.half_window = window_size // 2
        self.n_tags = n_tags
        self.encoder, width = sentence_encoder(self.lookup.width, lstm_width, lstm_depth)
        self.projection = nn.Linear(width, projection_width)
        self.distance = distance_table(max_distance, distance_width)
        width = projection_width * (1 + window_size) + distance_width
        self.heads, width = row_lstms(width, head_width, head_depth)
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
        S, T = sentence_index.shape
        if R == 0 or T == 0:
            return torch.zeros(R, T, self.n_tags, device=flat_ids.device)
        states = self.lookup(flat_ids)  # sentences end to end, padding rows between
        sentence_rows = sentence_index + self.half_window  # (S, T) each token's row
        sentence_lengths = row_lengths.new_zeros(S).scatter_(0, row_sentence, row_lengths)
        for layer in self.encoder:
            states = layer(self.dropout(states), sentence_rows, sentence_lengths)
        words = self.projection(self.dropout(states))  # (n_rows, projection_width)
        token_rows = sentence_rows[row_sentence]  # (R, T)
        return row_scores(
            words,
            token_rows,
            row_predicate,
            row_lengths,
            self.half_window,
            self.distance,
            self.heads,
            self.dropout,
            self.hidden,
            self.output,
        )
