"""The CRF against brute-force enumeration of every path on small random problems; its
span probabilities are in test_crf_span_log_probs.py."""

import itertools

import pytest
import torch

from spacy_senna.layers import crf as crf_module
from spacy_senna.layers import crf_viterbi
from spacy_senna.layers.crf import CRF


def random_crf(C, seed, *, use_end=False, constrained=False, dtype=torch.float64):
    g = torch.Generator().manual_seed(seed)
    crf = CRF(C, use_end=use_end).to(dtype)
    with torch.no_grad():
        crf.transitions.copy_(torch.randn(C, C, generator=g, dtype=dtype))
        crf.start.copy_(torch.randn(C, generator=g, dtype=dtype))
        if use_end:
            crf.end.copy_(torch.randn(C, generator=g, dtype=dtype))
    if constrained:
        allowed = torch.rand(C, C, generator=g) > 0.35
        allowed[:, 0] = True  # tag 0 reachable from anywhere: some path always exists
        start = torch.rand(C, generator=g) > 0.3
        start[0] = True
        end = torch.rand(C, generator=g) > 0.3
        end[0] = True
        crf.set_constraints(allowed, start, end)
        crf.constrain_training = True
    return crf


def path_score(crf, em, path, constrained):
    start = crf.start + (crf.start_penalty if constrained else 0)
    trans = crf.transitions + (crf.trans_penalty if constrained else 0)
    score = start[path[0]] + em[0, path[0]]
    for t in range(1, len(path)):
        score = score + trans[path[t - 1], path[t]] + em[t, path[t]]
    end = torch.zeros(crf.n_tags, dtype=em.dtype)
    if crf.end is not None:
        end = end + crf.end
    if constrained:
        end = end + crf.end_penalty
    return score + end[path[-1]]


def all_paths(crf, em, length, constrained):
    C = crf.n_tags
    for path in itertools.product(range(C), repeat=length):
        yield path, path_score(crf, em[:length], path, constrained)


CASES = [
    (C, seed, end, con)
    for C in (2, 3, 5)
    for seed in (0, 1)
    for end in (False, True)
    for con in (False, True)
]


@pytest.mark.parametrize("C,seed,use_end,constrained", CASES)
@pytest.mark.parametrize("numpy_viterbi", [True, False])
def test_against_brute_force(
    random_batch, monkeypatch, C, seed, use_end, constrained, numpy_viterbi
):
    # problems this small decode in NumPy (crf_viterbi.small_viterbi); check torch's too
    monkeypatch.setattr(crf_viterbi, "SMALL_VITERBI_FLOATS", 1 << 30 if numpy_viterbi else 0)
    T = 6 if C < 5 else 5
    crf = random_crf(C, seed, use_end=use_end, constrained=constrained)
    em, tags, lengths = random_batch(C, seed + 10, T=T)
    if constrained:  # make the gold consistent with the constraints: use the best path
        tags = torch.where(tags >= 0, crf.decode(em, lengths), tags)
    nll = crf.nll(em, tags, lengths)
    marg = crf.marginals(em, lengths)
    paths, scores = crf.kbest(em, lengths, 4)
    decoded = crf.decode(em, lengths)
    for b, L in enumerate(lengths.tolist()):
        enumerated = list(all_paths(crf, em[b], L, constrained))
        all_scores = torch.stack([s for _, s in enumerated])
        log_z = torch.logsumexp(all_scores, 0)
        consistent = [
            s for p, s in enumerated if all(tags[b, t] < 0 or tags[b, t] == p[t] for t in range(L))
        ]
        expected_nll = log_z - torch.logsumexp(torch.stack(consistent), 0)
        assert nll[b].item() == pytest.approx(expected_nll.item(), abs=1e-5)
        probs = torch.exp(all_scores - log_z)
        expected_marg = torch.zeros(L, C, dtype=em.dtype)
        for (p, _), pr in zip(enumerated, probs):
            for t in range(L):
                expected_marg[t, p[t]] += pr
        assert torch.allclose(marg[b, :L], expected_marg, atol=1e-5)
        assert torch.all(marg[b, L:] == 0)
        order = torch.argsort(all_scores, descending=True)
        finite = [i for i in order.tolist() if torch.isfinite(all_scores[i])]
        for r in range(4):
            if r < len(finite):
                assert scores[b, r].item() == pytest.approx(all_scores[finite[r]].item(), abs=1e-5)
                got = tuple(paths[b, r, :L].tolist())
                assert path_score(crf, em[b, :L], got, True).item() == pytest.approx(
                    scores[b, r].item(), abs=1e-5
                )
            else:
                assert scores[b, r] == float("-inf") and torch.all(paths[b, r] == -1)
        assert tuple(decoded[b, :L].tolist()) == enumerated[finite[0]][0]
        assert torch.all(decoded[b, L:] == -1) and torch.all(paths[b, :, L:] == -1)


def test_kbest_paths_are_distinct_and_sorted(random_batch):
    crf = random_crf(4, 3)
    em, _, lengths = random_batch(4, 5)
    paths, scores = crf.kbest(em, lengths, 6)
    assert torch.all(scores[:, :-1] >= scores[:, 1:])
    for b in range(len(lengths)):
        rows = {tuple(p.tolist()) for p in paths[b]}
        assert len(rows) == 6 if lengths[b] > 1 else len(rows) == 5  # 4 paths + the -1 row


def test_span_probability_is_the_probability_of_the_labelled_span(random_batch):
    crf = random_crf(3, 7)
    em, _, lengths = random_batch(3, 8)
    span = torch.full_like(em[:, :, 0], -1, dtype=torch.long)
    span[:, 0] = 1
    logp = crf.sequence_log_prob(em, span, lengths)
    marg = crf.marginals(em, lengths)
    assert torch.allclose(logp.exp(), marg[:, 0, 1], atol=1e-6)


def test_gradcheck(random_batch):
    crf = random_crf(3, 2, use_end=True)
    em, tags, lengths = random_batch(3, 4)
    em.requires_grad_(True)

    def loss(em, trans, start, end):
        with torch.no_grad():
            crf.transitions.copy_(trans)
            crf.start.copy_(start)
            crf.end.copy_(end)
        crf.transitions.grad = crf.start.grad = crf.end.grad = None
        return CRFLossFn.apply(em, trans, start, end, crf, tags, lengths)

    params = tuple(
        p.detach().clone().requires_grad_(True) for p in (crf.transitions, crf.start, crf.end)
    )
    assert torch.autograd.gradcheck(loss, (em, *params), eps=1e-6, atol=1e-5)


class CRFLossFn(torch.autograd.Function):
    """Exposes the CRF parameters as gradcheck inputs."""

    @staticmethod
    def forward(ctx, em, trans, start, end, crf, tags, lengths):
        with torch.enable_grad():
            em_ = em.detach().requires_grad_(True)
            out = crf.nll(em_, tags, lengths)
            grads = torch.autograd.grad(out.sum(), (em_, crf.transitions, crf.start, crf.end))
        ctx.grads = grads
        return out.sum().detach()

    @staticmethod
    def backward(ctx, g):
        return tuple(x * g for x in ctx.grads) + (None, None, None)


def test_gradcheck_transitions_directly(random_batch):
    """Gradients of the hand-written forward-backward, checked numerically end to end."""
    crf = random_crf(4, 11)
    em, tags, lengths = random_batch(4, 12)
    em.requires_grad_(True)
    assert torch.autograd.gradcheck(lambda e: crf.nll(e, tags, lengths), (em,), eps=1e-6, atol=1e-5)
    crf.nll(em, tags, lengths).sum().backward()
    analytic = crf.transitions.grad.clone()
    numeric = torch.zeros_like(analytic)
    for i in range(4):
        for j in range(4):
            with torch.no_grad():
                crf.transitions[i, j] += 1e-6
                up = crf.nll(em, tags, lengths).sum()
                crf.transitions[i, j] -= 2e-6
                down = crf.nll(em, tags, lengths).sum()
                crf.transitions[i, j] += 1e-6
            numeric[i, j] = (up - down) / 2e-6
    assert torch.allclose(analytic, numeric, atol=1e-5)


def test_padding_never_changes_results(random_batch):
    crf = random_crf(5, 1, use_end=True, dtype=torch.float32)
    em, tags, lengths = random_batch(5, 2, dtype=torch.float32)
    padded = torch.cat([em, torch.full((4, 7, 5), 1e6)], dim=1)
    padded[1, 1:] = float("nan")
    padded_tags = torch.cat([tags, torch.randint(0, 5, (4, 7))], dim=1)
    assert torch.allclose(crf.nll(em, tags, lengths), crf.nll(padded, padded_tags, lengths))
    assert torch.equal(crf.decode(em, lengths), crf.decode(padded, lengths)[:, :6])
    assert torch.allclose(crf.marginals(em, lengths), crf.marginals(padded, lengths)[:, :6])
    assert torch.allclose(crf.kbest(em, lengths, 3)[1], crf.kbest(padded, lengths, 3)[1])
    single = [
        crf.nll(em[b : b + 1, : lengths[b]], tags[b : b + 1, : lengths[b]], lengths[b : b + 1])
        for b in range(4)
    ]
    assert torch.allclose(torch.cat(single), crf.nll(em, tags, lengths), atol=1e-5)


def test_empty_sequences_have_one_empty_path():
    crf = random_crf(3, 0, dtype=torch.float32)
    em = torch.randn(2, 4, 3)
    lengths = torch.tensor([0, 4])
    tags = torch.randint(0, 3, (2, 4))
    nll = crf.nll(em, tags, lengths)
    assert nll[0] == 0 and nll[1] > 0
    assert torch.all(crf.decode(em, lengths)[0] == -1)
    assert torch.all(crf.marginals(em, lengths)[0] == 0)
    paths, scores = crf.kbest(em, lengths, 2)
    assert scores[0, 0] == 0 and scores[0, 1] == float("-inf")
    assert crf.nll(
        torch.zeros(2, 0, 3), torch.zeros(2, 0, dtype=torch.long), torch.zeros(2)
    ).tolist() == [0, 0]


def test_long_sequences_with_large_emissions_are_finite():
    torch.manual_seed(0)
    crf = CRF(17)
    with torch.no_grad():
        crf.transitions.normal_()
    em = (torch.rand(3, 1000, 17) * 2 - 1) * 1e4
    em.requires_grad_(True)
    tags = torch.randint(0, 17, (3, 1000))
    lengths = torch.tensor([1000, 999, 10])
    nll = crf.nll(em, tags, lengths)
    nll.sum().backward()
    assert torch.isfinite(nll).all() and (nll >= 0).all()
    assert torch.isfinite(em.grad).all() and torch.isfinite(crf.transitions.grad).all()
    marg = crf.marginals(em.detach(), lengths)
    assert torch.allclose(marg[0].sum(1), torch.ones(1000), atol=1e-4)


def test_fallback_when_constraints_and_huge_emissions_underflow():
    crf = CRF(3, constrain_training=True)
    allowed = torch.tensor([[True, True, False], [False, True, True], [True, False, True]])
    crf.set_constraints(allowed)
    em = torch.tensor([[[0.0, -5e3, 0.0], [-5e3, 0.0, -5e3], [0.0, 0.0, 0.0]]])
    em.requires_grad_(True)
    tags = torch.tensor([[0, 1, 2]])
    nll = crf.nll(em, tags, torch.tensor([3]))
    nll.sum().backward()
    assert torch.isfinite(nll).all() and torch.isfinite(em.grad).all()


def test_bad_arguments_get_clear_errors():
    crf = CRF(3)
    with pytest.raises(ValueError, match="emissions must be"):
        crf.decode(torch.zeros(2, 4, 5), torch.tensor([4, 4]))
    with pytest.raises(ValueError, match="lengths must"):
        crf.decode(torch.zeros(2, 4, 3), torch.tensor([5, 4]))
    with pytest.raises(ValueError, match="tags must"):
        crf.nll(torch.zeros(1, 2, 3), torch.tensor([[0, 3]]), torch.tensor([2]))


def test_training_reduces_loss_and_fits_a_tiny_set():
    torch.manual_seed(0)
    crf = CRF(4)
    em = torch.nn.Parameter(torch.zeros(2, 5, 4))
    tags = torch.tensor([[0, 1, 2, 3, 0], [3, 3, 1, -1, -1]])
    lengths = torch.tensor([5, 3])
    opt = torch.optim.Adam([em, *crf.parameters()], lr=0.1)
    first = None
    for _ in range(100):
        opt.zero_grad()
        loss = crf.nll(em, tags, lengths).sum()
        loss.backward()
        opt.step()
        first = first if first is not None else loss.item()
    assert loss.item() < first * 0.05
    assert crf.decode(em, lengths).tolist() == [[0, 1, 2, 3, 0], [3, 3, 1, -1, -1]]


def test_decoding_follows_transitions_changed_in_place():
    """The decoder keeps the transition blocks of its matrix between batches; an update
    that changes the matrix in place (as the optimizer and weight loading do, moving its
    version) is decoded with the new one."""
    crf = random_crf(5, 0, constrained=True, dtype=torch.float32)
    g = torch.Generator().manual_seed(1)
    emissions, lengths = torch.randn(3, 6, 5, generator=g), torch.tensor([6, 4, 1])
    before = crf.decode_chunks([(emissions, lengths)])[0]
    assert torch.equal(crf.decode_chunks([(emissions, lengths)])[0], before)
    with torch.no_grad():
        crf.transitions.copy_(torch.randn(5, 5, generator=g) * 10)
    fresh = random_crf(5, 0, constrained=True, dtype=torch.float32)
    fresh.load_state_dict(crf.state_dict())
    after = crf.decode_chunks([(emissions, lengths)])[0]
    assert torch.equal(after, fresh.decode_chunks([(emissions, lengths)])[0])
    assert not torch.equal(after, before)


@pytest.mark.parametrize("compiled", [True, False])
def test_both_decoders_follow_transitions_changed_in_place(compiled, monkeypatch):
    """What a decoder keeps of the transition scores (the packed decoder's blocks, the
    compiled one's layout) is made again when an optimizer step or loaded weights write
    them in place: the next decode reads the new scores."""
    if not compiled:
        monkeypatch.setattr(crf_module, "_decodes_compiled", lambda *_: False)
    crf = CRF(2)
    emissions, lengths = torch.zeros(1, 3, 2), torch.tensor([3])
    with torch.no_grad():
        crf.transitions.copy_(torch.tensor([[5.0, 0.0], [0.0, 0.0]]))
        crf.start.copy_(torch.tensor([1.0, 0.0]))
    assert crf.decode(emissions, lengths).tolist() == [[0, 0, 0]]
    with torch.no_grad():
        crf.transitions.copy_(torch.tensor([[0.0, 0.0], [0.0, 5.0]]))
        crf.start.copy_(torch.tensor([0.0, 1.0]))
    assert crf.decode(emissions, lengths).tolist() == [[1, 1, 1]]
