"""Torch intra-op threads for the components' hot paths.

The networks run many small ops per sentence batch (the CRF recursions step through
time). With several intra-op threads, and especially on a busy machine, OpenMP
synchronisation dominates those ops (measured here: a 45-tag CRF batch took 3.6 s with
2 threads on a loaded 2-core machine vs 52 ms with 1). Like spaCy's own CPU components
and SENNA itself, the components therefore run single-threaded by default; set
SPACY_SENNA_THREADS=N to change it. The caller's own torch setting is restored after.
"""

import os
from contextlib import contextmanager
from typing import Iterator

import torch


def component_threads() -> int:
    value = os.environ.get("SPACY_SENNA_THREADS", "1")
    if not value.isdigit() or int(value) < 1:
        raise ValueError(f"SPACY_SENNA_THREADS must be a positive integer, got {value!r}")
    return int(value)


@contextmanager
def torch_threads() -> Iterator[None]:
    """Run the block with the components' torch thread count."""
    previous = torch.get_num_threads()
    wanted = component_threads()
    if wanted == previous:
        yield
        return
    torch.set_num_threads(wanted)
    try:
        yield
    finally:
        torch.set_num_threads(previous)
