"""The compiled CPU decoder (Numba) gives the paths the packed torch decoder gives, ties,
empty rows, NaN padding, float64 and unconstrained decoding included."""

import pytest
import torch

from spacy_senna.labels.tags import allowed_transitions
from spacy_senna.layers import crf as crf_module
from spacy_senna.layers.crf import CRF


def _crf(n_labels: int, with_end: bool) -> CRF:
    tags = ["O"] + [f"{p}-L{i}" for i in range(n_labels) for p in "BILU"]
    trans, start, end = (torch.tensor(a) for a in allowed_transitions(tags, "BILUO"))
    crf = CRF(
        len(tags),
        allowed_transitions=trans,
        allowed_start=start,
        allowed_end=end,
        use_end=with_end,
    )
    g = torch.Generator().manual_seed(n_labels)
    with torch.no_grad():
        # small integers: many ties, which both decoders must break the same way
        crf.transitions.copy_(torch.randint(-2, 3, crf.transitions.shape, generator=g))
        crf.start.copy_(torch.randint(-1, 2, crf.start.shape, generator=g))
        if crf.end is not None:
            crf.end.copy_(torch.randint(-1, 2, crf.end.shape, generator=g))
    return crf


def _calls(n_tags: int, dtype: torch.dtype):
    g = torch.Generator().manual_seed(3)
    calls = []
    for rows, T in [(1, 1), (1, 17), (4, 9), (0, 0), (6, 30)]:
        emissions = torch.randint(-2, 3, (rows, T, n_tags), generator=g).to(dtype)
        lengths = torch.randint(0, T + 1, (rows,), generator=g)
        if rows:
            lengths[0] = T
        if rows > 1:
            lengths[1] = 0
            emissions[1] = float("nan")  # padding never matters
        calls.append((emissions, lengths))
    return calls


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
@pytest.mark.parametrize("with_end", [True, False])
@pytest.mark.parametrize("constrained", [True, False])
@pytest.mark.parametrize("n_labels", [1, 3, 30])
def test_compiled_paths_equal_the_torch_decoders(
    monkeypatch, dtype, with_end, constrained, n_labels
):
    crf = _crf(n_labels, with_end).to(dtype)
    calls = _calls(crf.n_tags, dtype)
    compiled = crf.decode_chunks(calls, constrained=constrained)
    monkeypatch.setattr(crf_module, "_decodes_compiled", lambda *_: False)
    packed = crf.decode_chunks(calls, constrained=constrained)
    for (emissions, _), a, b in zip(calls, compiled, packed):
        assert a.shape == emissions.shape[:2] and a.dtype == torch.long
        assert torch.equal(a, b)


def test_new_transitions_are_compiled_again():
    crf = _crf(3, True)
    emissions, lengths = _calls(crf.n_tags, torch.float32)[1]
    before = crf.decode(emissions, lengths)
    with torch.no_grad():
        crf.transitions.mul_(-1)  # labelling after a training step
    after = crf.decode(emissions, lengths)
    expected = crf.kbest(emissions, lengths, 1)[0][:, 0]
    assert torch.equal(after, expected) and not torch.equal(before, after)


@pytest.mark.parametrize("n_labels,blocked", [(3, False), (30, True)])
def test_a_large_constrained_crf_decodes_its_allowed_transitions_only(n_labels, blocked):
    """121 BILUO tags decode from their allowed transitions (the block and the narrow
    tags; the test above compares their paths); 13 tags, or no constraint, decode densely."""
    crf = _crf(n_labels, True)
    assert (crf._compiled_transitions(True).allowed is not None) is blocked
    assert crf._compiled_transitions(False).allowed is None
    if blocked:
        layout = crf._compiled_transitions(True).allowed
        allowed = torch.isfinite(crf.trans_penalty).sum().item()
        read = [torch.tensor(layout.wide), torch.tensor(layout.narrow)]
        kept = sum(int(torch.isfinite(scores).sum()) for scores in read)
        assert kept == allowed <= sum(scores.numel() for scores in read) < crf.n_tags**2 / 3
