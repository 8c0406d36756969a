"""Fixtures of the layer tests: random emission batches for the sequence criteria."""

import pytest
import torch


def _random_batch(C, seed, dtype=torch.float64, T=6):
    g = torch.Generator().manual_seed(seed)
    lengths = torch.tensor([T, 1, 3, T - 1])
    em = torch.randn(len(lengths), T, C, generator=g, dtype=dtype) * 2
    tags = torch.randint(0, C, (len(lengths), T), generator=g)
    missing = torch.rand(len(lengths), T, generator=g) < 0.3
    tags = tags.masked_fill(missing, -1)
    return em, tags, lengths


@pytest.fixture
def random_batch():
    """`random_batch(C, seed, dtype=float64, T=6)`: (emissions, tags with -1 for missing,
    lengths) of four rows of lengths T, 1, 3 and T - 1."""
    return _random_batch
