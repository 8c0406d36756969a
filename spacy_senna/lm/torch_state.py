"""Pretraining leaves torch's global state as it found it.

The run's thread count is set for the run only, and the model is initialised from the
run's seed on a fork of the CPU random generator: the caller's RNG stream is untouched
(the training negatives and validation use generators of their own).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import torch


@contextmanager
def torch_threads(threads: int) -> Iterator[None]:
    """Run the block with `threads` intra-op threads (0: leave torch's setting)."""
    previous = torch.get_num_threads()
    if threads:
        torch.set_num_threads(threads)
    try:
        yield
    finally:
        if torch.get_num_threads() != previous:
            torch.set_num_threads(previous)


@contextmanager
def seeded_cpu_rng(seed: int) -> Iterator[None]:
    """Run the block with the global CPU generator seeded by `seed`, restored after."""
    with torch.random.fork_rng(devices=[]):
        torch.default_generator.manual_seed(seed)
        yield
