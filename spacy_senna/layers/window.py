"""SENNA's window approach network (paper §3.3.1, Figure 1) with its sequence criterion."""

from typing import Optional, Sequence, Tuple

import numpy
import torch
from torch import Tensor, nn

from .document_context import other_occurrences_mean
from .lexicon import PADDING
from .lookup_spec import LookupSpec
from .precision import check_inference_dtype, dense
from .recurrent import SentenceLSTM
from .settings import check_window_size


class WindowNetwork(nn.Module):
    """Lookup tables -> window of `window_size` -> Linear -> HardTanh -> Linear(n_tags).

    The batch arrives flattened: every sentence is preceded and followed by
    `window_size // 2` PADDING rows (paper Remark 1), so the window's first Linear layer
    is one 1-D convolution over the whole batch with no compute spent on batch padding.
    `index` then gathers each token's scores into a padded (B, T, n_tags) tensor.
    `lookup` names its tables, the character CNNs after them and a shared word table's
    lookup (senna_words) after those (`LookupSpec`, see FeatureLookup).
    With `doc_context` the output layer also reads, for each token, the mean hidden layer
    of its other occurrences (`context`, see `document_context`); in training each token's
    context is zeroed with probability `context_dropout`, as if the word occurred once,
    so the network also labels well a Doc that is a single sentence.
    With `lstm_width` > 0 a BiLSTM reads each whole sentence (`SentenceLSTM`, needs
    `lengths`). With `lstm_window` its states join every word's features before the window
    layer, so the layer reads them at all `window_size` positions; without, the hidden
    layer reads the window of word features plus the centre word's states only (the
    same hidden units from about 2.3x fewer multiply-adds with SENNA's widths).
    `input_dropout` drops word features (lookup tables and characters) in training,
    before the LSTM and the window layer (Lample et al. 2016; Ma & Hovy 2016).
    `inference_dtype` "bfloat16" runs the window layer (and the centre layer) in bfloat16
    at inference, on a CPU that computes it natively (see `precision`).

    *Shape:* flat ids ``(n_rows, n_columns)``, index ``(batch, time)``, context ``(2, M)``
    (hidden rows of the repeated words and their groups), lengths ``(batch,)`` -> scores
    ``(batch, time, n_tags)`` (padding positions hold the scores of row 0)
    """

    def __init__(
        self,
        *,
        lookup: LookupSpec,
        n_tags: int,
        window_size: int = 5,
        hidden_width: int = 300,
        dropout: float = 0.0,
        doc_context: bool = False,
        context_dropout: float = 0.0,
        lstm_width: int = 0,
        lstm_window: bool = True,
        input_dropout: float = 0.0,
        inference_dtype: str = "float32",
    ):
        super().__init__()
        check_window_size(window_size)
        self.inference_dtype = check_inference_dtype(inference_dtype)
        self.lookup = lookup.build()
        self.half_window = window_size // 2
        self.lstm = SentenceLSTM(self.lookup.width, lstm_width) if lstm_width else None
        in_window = 2 * lstm_width if lstm_window else 0
        self.hidden = nn.Conv1d(self.lookup.width + in_window, hidden_width, window_size)
        self.lstm_centre = (
            nn.Linear(2 * lstm_width, hidden_width, bias=False)
            if lstm_width and not lstm_window
            else None
        )
        self.dropout = nn.Dropout(dropout)
        self.input_dropout = nn.Dropout(input_dropout)
        self.doc_context = doc_context
        self.context_dropout = context_dropout
        self.output = nn.Linear(hidden_width * (2 if doc_context else 1), n_tags)
        self.n_tags = n_tags

    def forward(
        self,
        flat_ids: Tensor,
        index: Tensor,
        context: Optional[Tensor] = None,
        lengths: Optional[Tensor] = None,
    ) -> Tensor:
        B, T = index.shape
        if T == 0 or flat_ids.shape[0] <= 2 * self.half_window:
            return torch.zeros(B, T, self.n_tags, device=flat_ids.device)
        x = self.lookup(flat_ids)  # (n_rows, width)
        if self.training:
            x = self.input_dropout(x)
        states = None
        if self.lstm is not None:
            if lengths is None:
                raise ValueError("This window network runs an LSTM: pass `lengths`.")
            states = self.lstm(x, index + self.half_window, lengths)
            if self.training:
                states = self.dropout(states)
            if self.lstm_centre is None:
                x = torch.cat([x, states], dim=1)
        windows = x.T[None]
        if self.lstm_centre is None:
            hidden = dense(self.hidden, windows, self.inference_dtype, hardtanh=True)[0].T
        else:
            # output row r is the window centred on input row r + h
            h = self.half_window
            centre = states[h : states.shape[0] - h]
            hidden = dense(self.hidden, windows, self.inference_dtype)[0].T
            hidden = hidden + dense(self.lstm_centre, centre, self.inference_dtype)
            hidden = nn.functional.hardtanh_(hidden)
        if not self.doc_context:
            return _token_scores(
                self.output(self.dropout(hidden) if self.training else hidden), index
            )
        if context is None:
            raise ValueError("This window network reads document context: pass `context`.")
        # the output layer reads [own hidden, context]; the context is zero for a word
        # that occurs once, so only the repeated words' rows get the second half
        width = hidden.shape[1]
        weight = self.output.weight
        scores = nn.functional.linear(self.dropout(hidden), weight[:, :width], self.output.bias)
        rows, groups = context.to(hidden.device)
        if len(rows):
            mean = other_occurrences_mean(hidden[rows], groups)
            if self.training and self.context_dropout > 0:
                keep = torch.rand(len(mean), 1, device=mean.device) >= self.context_dropout
                mean = mean * keep
            extra = nn.functional.linear(self.dropout(mean), weight[:, width:])
            scores = scores.index_add(0, rows, extra)
        return _token_scores(scores, index)


def _token_scores(rows: Tensor, index: Tensor) -> Tensor:
    """`rows[index]`: each token's scores from the rows of the convolution's output. One
    sentence (a short text labelled alone) fills every row, in order (`flatten_windows`),
    so its scores are the rows themselves, taken as a view."""
    if index.shape[0] == 1 and index.shape[1] == rows.shape[0]:
        return rows[None]
    return rows[index]


def flatten_windows(
    docs_ids: Sequence[numpy.ndarray], half_window: int
) -> Tuple[numpy.ndarray, numpy.ndarray]:
    """Lay sentences end to end with `half_window` PADDING rows around each one.

    Returns (flat ids (n_rows, K), index (B, T) of each token's centre row minus
    `half_window`, i.e. its row in the convolution output; 0 on padding).
    """
    n_cols = docs_ids[0].shape[1] if docs_ids else 0
    pad = numpy.full((half_window, n_cols), PADDING, dtype="int64")
    if len(docs_ids) == 1 and len(docs_ids[0]):  # one sentence (a short text alone)
        index = numpy.arange(len(docs_ids[0]), dtype="int64")[None]
        return numpy.concatenate([pad, docs_ids[0], pad]), index
    lengths = numpy.array([len(ids) for ids in docs_ids], dtype="int64")
    blocks = [pad]
    for ids in docs_ids:
        if len(ids):
            blocks.append(ids)
            blocks.append(pad)
    # each sentence's first row (its centre row minus half_window), padding counted
    spans = numpy.where(lengths > 0, lengths + half_window, 0)
    first = numpy.cumsum(spans) - spans
    steps = numpy.arange(int(lengths.max(initial=0)))
    index = numpy.where(steps[None, :] < lengths[:, None], first[:, None] + steps[None, :], 0)
    return numpy.concatenate(blocks), index
