"""Weight copies kept per version: made once, made again after an in-place change, one per
purpose, and forgotten with their tensor."""

import gc

import torch

from spacy_senna.layers import kept_copies


def test_a_copy_is_made_once_per_version_and_purpose():
    weight = torch.arange(6.0).reshape(2, 3)
    made = []

    def transposed(w):
        made.append(1)
        return w.T.contiguous()

    first = kept_copies.kept_copy("transposed", transposed, weight)
    assert kept_copies.kept_copy("transposed", transposed, weight) is first and len(made) == 1
    assert kept_copies.kept_copy("doubled", lambda w: w * 2, weight).sum() == 30  # its own copy
    with torch.no_grad():
        weight.mul_(-1)  # an optimizer step, in place
    again = kept_copies.kept_copy("transposed", transposed, weight)
    assert len(made) == 2 and torch.equal(again, weight.T)


def test_a_copy_goes_with_its_tensor():
    weight = torch.ones(4)
    kept_copies.kept_copy("plus one", lambda w: w + 1, weight)
    key = (id(weight), "plus one")
    assert key in kept_copies._COPIES
    del weight
    gc.collect()
    assert key not in kept_copies._COPIES
