"""WordLevelLikelihood: per-token cross-entropy, argmax decoding, softmax marginals."""

import pytest
import torch

from spacy_senna.layers.word_likelihood import WordLevelLikelihood


def test_word_level_likelihood_is_token_cross_entropy(random_batch):
    wll = WordLevelLikelihood(4).double()
    em, tags, lengths = random_batch(4, 3)
    nll = wll.nll(em, tags, lengths)
    for b, L in enumerate(lengths.tolist()):
        known = tags[b, :L] >= 0
        ce = torch.nn.functional.cross_entropy(
            em[b, :L][known], tags[b, :L][known], reduction="sum"
        )
        assert nll[b].item() == pytest.approx(ce.item(), abs=1e-8)
    decoded = wll.decode(em, lengths)
    for b, L in enumerate(lengths.tolist()):
        assert decoded[b, :L].tolist() == em[b, :L].argmax(1).tolist()
    assert torch.allclose(wll.marginals(em, lengths)[0], torch.softmax(em[0], 1))
    assert not any(p.requires_grad for p in wll.parameters())
