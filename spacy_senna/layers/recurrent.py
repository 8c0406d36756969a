"""A bidirectional LSTM over each sentence's word vectors (not in SENNA; the BiLSTM-CRF
encoder of Huang et al. 2015 and Ma & Hovy 2016), for the window network's input."""

from typing import Tuple

import torch
from torch import Tensor, nn
from torch.nn.utils.rnn import PackedSequence

from .crf import lengths_mask
from .lstm_compiled import compiled_bidirectional, runs_compiled


class SentenceLSTM(nn.Module):
    """Runs a one-layer BiLSTM over every sentence of a flattened batch.

    The batch arrives as the window network lays it out (`flatten_windows`): sentences end
    to end in `rows`, with PADDING rows between them. `token_rows` (batch, time) names each
    token's row and `lengths` each sentence's length; the LSTM never crosses a sentence
    edge and padding rows get zeros, so a window at a sentence edge still sees only
    padding beyond it. Forget-gate biases start at 1 (Jozefowicz et al. 2015). A few
    sentences at inference on the CPU (one doc labelled at a time) run the recurrence as
    one compiled loop (`lstm_compiled`), which differs from `nn.LSTM` in rounding only.

    *Shape:* rows ``(n_rows, input_width)``, token_rows ``(batch, time)``, lengths
    ``(batch,)`` -> ``(n_rows, 2 * width)`` (forward and backward states)
    """

    def __init__(self, input_width: int, width: int):
        super().__init__()
        if width < 1:
            raise ValueError(f"The LSTM's width must be positive, got {width}")
        self.width = width
        self.lstm = nn.LSTM(input_width, width, batch_first=True, bidirectional=True)
        start_forget_gates_open(self.lstm)

    def forward(self, rows: Tensor, token_rows: Tensor, lengths: Tensor) -> Tensor:
        batch, time = token_rows.shape
        if len(lengths) != batch:
            raise ValueError(f"SentenceLSTM got {len(lengths)} lengths for {batch} sentences")
        out = rows.new_zeros(rows.shape[0], 2 * self.width)
        if batch == 1 and time and rows.device.type == "cpu":  # its first row read: no sync
            # one sentence (a short text alone): its tokens are consecutive rows, read and
            # written as slices; copied as the gather copies them (a matrix product's
            # rounding can depend on where its input starts in memory)
            first, length = int(token_rows[0, 0]), int(lengths[0])
            inputs = rows[first : first + length].clone()
            out[first : first + length] = self._states(inputs, torch.ones(length, dtype=torch.long))
            return out
        packed_rows, batch_sizes = packed_order(token_rows, lengths.cpu())
        return out.index_put((packed_rows,), self._states(rows[packed_rows], batch_sizes))

    def _states(self, inputs: Tensor, batch_sizes: Tensor) -> Tensor:
        """The LSTM's states over the packed `inputs`: compiled for a few rows at
        inference (`lstm_compiled`), else PyTorch's LSTM."""
        sizes = batch_sizes.tolist()
        if runs_compiled(inputs, self.lstm, sizes):
            return compiled_bidirectional(self.lstm, inputs, sizes)
        return self.lstm(PackedSequence(inputs, batch_sizes))[0].data


def sentence_encoder(width: int, lstm_width: int, depth: int) -> Tuple[nn.ModuleList, int]:
    """`depth` stacked `SentenceLSTM` layers reading `width` numbers, and their output
    width (the encoder that reads each sentence once, shared by its rows)."""
    layers = nn.ModuleList()
    for _ in range(depth):
        layers.append(SentenceLSTM(width, lstm_width))
        width = 2 * lstm_width
    return layers, width


def packed_order(token_rows: Tensor, lengths: Tensor) -> Tuple[Tensor, Tensor]:
    """The rows of a PackedSequence's data (time step by time step, the longest sentences
    first in each) and its batch sizes: the LSTM reads `rows[packed_rows]` and its
    states go back to the same rows, with no padded copy in between.

    *Shape:* token_rows ``(batch, time)``, lengths ``(batch,)`` on the CPU ->
    ``(n_tokens,)`` on token_rows' device, ``(longest,)`` on the CPU
    """
    if len(lengths) == 1:  # one sentence (a short text): its tokens, in order
        n = int(lengths[0])
        return token_rows[0, :n], torch.ones(n, dtype=torch.long)
    order = torch.sort(lengths, descending=True).indices
    in_order = lengths[order]
    batch_sizes = (in_order[None, :] > torch.arange(token_rows.shape[1])[:, None]).sum(dim=1)
    is_token = lengths_mask(in_order, token_rows.shape[1]).T.to(token_rows.device)
    packed_rows = token_rows[order.to(token_rows.device)].T[is_token]
    return packed_rows, batch_sizes[batch_sizes > 0]


def start_forget_gates_open(lstm: nn.LSTM) -> None:
    """Forget-gate biases 1, every other bias 0 (Jozefowicz et al. 2015)."""
    width = lstm.hidden_size
    for name, bias in lstm.named_parameters():
        if name.startswith("bias_ih"):
            nn.init.zeros_(bias)
            nn.init.ones_(bias.data[width : 2 * width])  # gate order: input, forget, ...
        elif name.startswith("bias_hh"):
            nn.init.zeros_(bias)
