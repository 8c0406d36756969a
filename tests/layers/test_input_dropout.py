"""`input_dropout` of the window network: it drops word features in training only."""

import numpy
import pytest
import torch

from spacy_senna.layers.window import WindowNetwork, flatten_windows
from spacy_senna.models import build_window_tagger

SENTENCES = [numpy.array([[2], [3], [2], [5], [6], [7]]), numpy.array([[2], [4]])]


def _run(net: WindowNetwork) -> torch.Tensor:
    flat, index = flatten_windows(SENTENCES, net.half_window)
    lengths = torch.tensor([len(s) for s in SENTENCES])
    return net(torch.from_numpy(flat), torch.from_numpy(index), None, lengths)


@pytest.mark.parametrize("lstm_width", [0, 3])
def test_input_dropout_acts_in_training_only(lstm_width):
    torch.manual_seed(0)
    net = WindowNetwork(
        table_sizes=[10],
        widths=[4],
        n_tags=3,
        hidden_width=6,
        lstm_width=lstm_width,
        input_dropout=0.5,
    )
    net.train()
    assert not torch.equal(_run(net), _run(net))
    net.eval()
    with torch.no_grad():
        assert torch.equal(_run(net), _run(net))


def test_bad_input_dropout_is_a_clear_error():
    with pytest.raises(ValueError, match="input_dropout must be at least 0 and below 1"):
        build_window_tagger({}, input_dropout=1.0)
