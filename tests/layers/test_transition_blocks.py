"""TransitionBlocks: a transition matrix as one dense block and narrow columns in block
order. Its pruned max-plus step equals the dense step float for float, its sum-product
steps the dense matrix products, and the CRF decodes with it exactly as densely."""

import pytest
import torch

from spacy_senna.labels.tags import allowed_transitions
from spacy_senna.layers import transition_blocks
from spacy_senna.layers.crf import CRF
from spacy_senna.layers.transition_blocks import TransitionBlocks


def scheme_tags(n_labels: int, letters: str):
    return ["O"] + [f"{p}-L{i}" for i in range(n_labels) for p in letters]


def masked_scores(allowed: torch.Tensor, seed: int) -> torch.Tensor:
    g = torch.Generator().manual_seed(seed)
    scores = torch.randn(allowed.shape, generator=g)
    return scores.masked_fill(~allowed, float("-inf"))


def dense_max_plus(prev: torch.Tensor, scores: torch.Tensor) -> torch.Tensor:
    return (prev[:, :, None] + scores[None]).amax(dim=1)


def random_mask(C: int, seed: int) -> torch.Tensor:
    """Mostly forbidden, with some tags that nothing may precede and some that may precede
    nothing, and a few wide columns."""
    g = torch.Generator().manual_seed(seed)
    allowed = torch.rand(C, C, generator=g) > 0.95
    allowed[:, :5] = torch.rand(C, 5, generator=g) > 0.2  # wide next tags
    allowed[:, 7] = False  # nothing may precede tag 7
    allowed[3, :] = False  # tag 3 may precede nothing
    return allowed


MASKS = [
    torch.tensor(allowed_transitions(scheme_tags(54, "BILU"), "BILUO")[0]),
    torch.tensor(allowed_transitions(scheme_tags(40, "BI"), "IOB2")[0]),
    random_mask(60, 0),
    random_mask(33, 1),
    torch.rand(40, 40, generator=torch.Generator().manual_seed(2)) > 0.9,  # no wide tag
    torch.ones(49, 49, dtype=torch.bool),  # no constraints: one block
]
IDS = ["BILUO", "IOB2", "random-60", "random-33", "all-narrow", "dense"]


def previous_scores(C: int, spread: float) -> torch.Tensor:
    """Rows of running scores: peaked (large spread) or flat, with dead tags and rows."""
    prev = torch.randn(64, C, generator=torch.Generator().manual_seed(1)) * spread
    prev[2, :] = float("-inf")  # a row with no live path
    prev[4, ::2] = float("-inf")
    prev[5, :] = 0.0  # every tag tied
    return prev


@pytest.mark.parametrize("allowed", MASKS, ids=IDS)
@pytest.mark.parametrize("spread", [0.1, 4.0, 100.0])
def test_max_plus_equals_the_dense_step_float_for_float(allowed, spread):
    scores = masked_scores(allowed, 0)
    blocks = TransitionBlocks(scores, allowed)
    prev = previous_scores(allowed.shape[0], spread)
    expected = dense_max_plus(prev, scores)
    got = blocks.restore(blocks.max_plus(blocks.reorder(prev)))
    assert torch.equal(got, expected)
    in_numpy = torch.from_numpy(blocks.max_plus_numpy(blocks.reorder(prev).numpy()))
    assert torch.equal(blocks.restore(in_numpy), expected)


@pytest.mark.parametrize("allowed", MASKS, ids=IDS)
def test_sum_products_equal_the_dense_matrix_products(allowed):
    scores = masked_scores(allowed, 0).double()
    blocks = TransitionBlocks(scores, allowed)
    exp_block, exp_narrow = blocks.exponentiated(scores.max(), torch.float64)
    dense = torch.exp(scores - scores.max())
    prev = torch.rand(7, allowed.shape[0], generator=torch.Generator().manual_seed(3)).double()
    forward = blocks.restore(blocks.sum_product(blocks.reorder(prev), exp_block, exp_narrow))
    backward = blocks.restore(blocks.sum_product_back(blocks.reorder(prev), exp_block, exp_narrow))
    assert torch.allclose(forward, prev @ dense, rtol=1e-12, atol=0)
    assert torch.allclose(backward, prev @ dense.T, rtol=1e-12, atol=0)


def test_biluo_block_holds_about_a_quarter_of_the_pairs():
    tags = scheme_tags(45, "BILU")
    allowed = torch.tensor(allowed_transitions(tags, "BILUO")[0])
    blocks = TransitionBlocks(masked_scores(allowed, 0), allowed)
    assert blocks.block.numel() / allowed.numel() < 0.3
    assert blocks.narrow_prev.shape == (90, 2)  # I-X and L-X: after B-X or I-X only


@pytest.mark.parametrize("letters,scheme", [("BILU", "BILUO"), ("BI", "IOB2")])
def test_crf_decoding_with_pruned_steps_equals_dense_decoding(monkeypatch, letters, scheme):
    tags = scheme_tags(30, letters)
    trans, start, end = (torch.tensor(a) for a in allowed_transitions(tags, scheme))
    C = len(tags)
    g = torch.Generator().manual_seed(0)
    crf = CRF(C, allowed_transitions=trans, allowed_start=start, allowed_end=end)
    with torch.no_grad():
        crf.transitions.copy_(torch.randn(C, C, generator=g))
        crf.start.copy_(torch.randn(C, generator=g))
    emissions = torch.randn(12, 20, C, generator=g) * 3
    lengths = torch.tensor([20, 1, 0, 7, 19, 20, 3, 2, 11, 5, 20, 13])
    monkeypatch.setattr(transition_blocks, "SMALL_STEP_FLOATS", 0)  # small steps pruned too
    pruned = crf.decode(emissions, lengths)
    monkeypatch.setattr(transition_blocks, "PRUNE_K", 10**6)  # every step dense
    assert torch.equal(pruned, crf.decode(emissions, lengths))
    for row, n in enumerate(lengths.tolist()):
        path = pruned[row, :n].tolist()
        assert all(trans[a, b] for a, b in zip(path, path[1:]))
        assert (pruned[row, n:] == -1).all()
