"""SparseTransitions: Viterbi's max-plus step over the allowed transitions only, equal
float for float to the dense step, and the CRF's decoding with it."""

import pytest
import torch

from spacy_senna.layers import sparse_transitions
from spacy_senna.layers.crf import CRF
from spacy_senna.layers.sparse_transitions import SparseTransitions
from spacy_senna.tags import allowed_transitions


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


@pytest.mark.parametrize(
    "allowed",
    [
        torch.tensor(allowed_transitions(scheme_tags(54, "BILU"), "BILUO")[0]),
        torch.tensor(allowed_transitions(scheme_tags(40, "BI"), "IOB2")[0]),
        random_mask(60, 0),
        random_mask(33, 1),
        torch.rand(40, 40, generator=torch.Generator().manual_seed(2)) > 0.9,  # no wide tag
    ],
    ids=["BILUO", "IOB2", "random-60", "random-33", "all-narrow"],
)
def test_max_plus_equals_the_dense_step_float_for_float(allowed):
    scores = masked_scores(allowed, 0)
    plan = SparseTransitions.plan(scores, allowed)
    assert plan is not None and plan.cost < allowed.numel()
    prev = torch.randn(9, allowed.shape[0], generator=torch.Generator().manual_seed(1)) * 4
    prev[2, :] = float("-inf")  # a row with no live path
    prev[4, ::2] = float("-inf")
    assert torch.equal(plan.max_plus(prev), dense_max_plus(prev, scores))


def test_biluo_plan_touches_about_a_quarter_of_the_pairs():
    tags = scheme_tags(54, "BILU")
    allowed = torch.tensor(allowed_transitions(tags, "BILUO")[0])
    plan = SparseTransitions.plan(masked_scores(allowed, 0), allowed)
    assert plan.cost / allowed.numel() < 0.3


def test_no_plan_when_dense_is_as_cheap():
    few = torch.tensor(allowed_transitions(scheme_tags(4, "BILU"), "BILUO")[0])  # 17 tags
    assert SparseTransitions.plan(masked_scores(few, 0), few) is None
    everything = torch.ones(40, 40, dtype=torch.bool)
    assert SparseTransitions.plan(torch.randn(40, 40), everything) is None


@pytest.mark.parametrize("letters,scheme", [("BILU", "BILUO"), ("BI", "IOB2")])
def test_crf_decoding_with_many_tags_equals_dense_decoding(monkeypatch, letters, scheme):
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
    sparse_paths = crf.decode(emissions, lengths)
    monkeypatch.setattr(sparse_transitions, "MIN_TAGS", 10**9)  # every step dense
    assert torch.equal(sparse_paths, crf.decode(emissions, lengths))
    for row, n in enumerate(lengths.tolist()):
        path = sparse_paths[row, :n].tolist()
        assert all(trans[a, b] for a, b in zip(path, path[1:]))
        assert (sparse_paths[row, n:] == -1).all()
