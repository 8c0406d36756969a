"""SentenceNetwork (SRL's sentence network) against the paper's network written directly,
and _MaxOverPositions, its max over positions with distance-dependent terms."""

import pytest
import torch

from spacy_senna.layers.lookup_spec import LookupSpec
from spacy_senna.layers.sentence import SentenceNetwork, _MaxOverPositions


def naive_scores(net: SentenceNetwork, ids: torch.Tensor, predicate: int) -> torch.Tensor:
    """The paper's sentence network written directly: for each word w, convolve the
    concatenated [word features, distance to predicate, distance to w] over every window."""
    n, h, m = ids.shape[0], net.half_window, net.max_distance
    pad = net.lookup(torch.zeros(1, ids.shape[1], dtype=torch.long))
    feats = torch.cat([pad.expand(h, -1), net.lookup(ids), pad.expand(h, -1)])
    weight = torch.cat([net.conv.weight, net.verb_conv, net.word_conv], dim=1)
    out = []
    for w in range(n):
        best = None
        for t in range(n):
            window = []
            for k in range(-h, h + 1):
                j = t + k
                verb = net.verb_distance.weight[max(-m, min(m, j - predicate)) + m]
                word = net.word_distance.weight[max(-m, min(m, j - w)) + m]
                window.append(torch.cat([feats[j + h], verb, word]))
            x = torch.stack(window, dim=1)  # (features, window)
            value = (weight * x[None]).sum(dim=(1, 2)) + net.conv.bias
            best = value if best is None else torch.maximum(best, value)
        out.append(net.output(torch.nn.functional.hardtanh(net.hidden(best))))
    return torch.stack(out)


def test_split_convolution_equals_the_papers_network():
    torch.manual_seed(0)
    net = SentenceNetwork(
        lookup=LookupSpec(table_sizes=[30, 6], widths=[4, 2]),
        n_tags=5,
        conv_width=7,
        hidden_width=6,
        distance_width=3,
        max_distance=3,
        max_block_elements=200,
    ).double()
    lengths = [9, 4, 1]
    sentences = [torch.randint(2, 6, (n, 2)) for n in lengths]
    rows = [(0, 0), (0, 8), (1, 2), (2, 0), (0, 4)]  # (sentence, predicate)
    h = net.half_window
    flat, index, start = [torch.zeros(h, 2, dtype=torch.long)], [], h
    for ids in sentences:
        flat += [ids, torch.zeros(h, 2, dtype=torch.long)]
        index.append(list(range(start - h, start - h + len(ids))) + [0] * (9 - len(ids)))
        start += len(ids) + h
    out = net(
        torch.cat(flat),
        torch.tensor(index),
        torch.tensor([s for s, _ in rows]),
        torch.tensor([p for _, p in rows]),
        torch.tensor([lengths[s] for s, _ in rows]),
    )
    for r, (s, p) in enumerate(rows):
        expected = naive_scores(net, sentences[s], p)
        assert torch.allclose(out[r, : lengths[s]], expected, atol=1e-10)
        assert (out[r, lengths[s] :] == 0).all()


def test_max_over_positions_gradient():
    torch.manual_seed(0)
    rows = torch.randn(3, 5, 4, dtype=torch.double, requires_grad=True)
    table = torch.randn(5, 4, dtype=torch.double, requires_grad=True)
    positions = torch.arange(5)
    lengths = torch.tensor([5, 2, 4])
    mask = positions[None, :] >= lengths[:, None]
    masked = rows.masked_fill(mask[:, :, None], float("-inf"))

    def f(r, t):
        return _MaxOverPositions.apply(
            r.masked_fill(mask[:, :, None], float("-inf")), t, lengths, 2, 60
        )

    assert torch.autograd.gradcheck(f, (rows, table))
    assert torch.isfinite(f(masked, table)).all()


def test_max_over_positions_block_bound_does_not_change_the_result():
    torch.manual_seed(0)
    T, C = 40, 6
    rows = torch.randn(2, T, C)
    table = torch.randn(21, C)
    lengths = torch.tensor([T, 17])
    rows[1, 17:] = float("-inf")
    unbounded = _MaxOverPositions.apply(rows, table, lengths, 10, 1 << 30)
    tiny = _MaxOverPositions.apply(rows, table, lengths, 10, 100)  # < one row
    assert torch.equal(unbounded, tiny) and (unbounded[1, 17:] == 0).all()


@pytest.mark.parametrize("reach", [1, 3, 50])
def test_max_over_positions_equals_the_quadratic_max_float_for_float(reach):
    torch.manual_seed(1)
    T, C = 23, 5
    rows = torch.randn(3, T, C)
    table = torch.randn(2 * reach + 1, C)
    lengths = torch.tensor([T, 9, 1])
    for r, n in enumerate(lengths.tolist()):
        rows[r, n:] = float("-inf")
    positions = torch.arange(T)
    offsets = (positions[None, :] - positions[:, None]).clamp(-reach, reach) + reach  # (w, t)
    quadratic = (rows[:, None, :, :] + table[offsets][None]).amax(dim=2)  # (R, w, C)
    for track in (True, False):  # with positions for the gradient, or values only
        fast = _MaxOverPositions.apply(rows, table, lengths, reach, 1 << 20, track)
        for r, n in enumerate(lengths.tolist()):
            assert torch.equal(fast[r, :n], quadratic[r, :n])
            assert (fast[r, n:] == 0).all()
