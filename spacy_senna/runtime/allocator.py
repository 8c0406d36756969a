"""Keep the memory a batch frees for the next batch (glibc's malloc).

Labelling and the LM's training steps allocate and free tensors of a few MB, batch after
batch. glibc hands much of that back to the system and pays a page fault for each 4 KiB
page when the next batch takes it again: in the LM's Hogwild workers about 180,000 faults a
second per worker, 40% of its CPU time in the kernel (benchmarks/lm/lm_pretraining.md, "Twice
the words per second"); in en_senna's tagger, chunker and ner some 70,000 faults per 67,000
words (docs/experiments/wave4-speed.md, "Page faults"). Fixed thresholds keep chunks up to
32 MiB in the heap and trim it only when 256 MiB lie free at its top.

The thresholds hold for the whole process, so a library sets them only where asked: the
LM's worker processes, `annotate`'s processes, and a pipeline whose config names the
`spacy-senna.keep_freed_memory.v1` callback (en_senna's does). (The opposite of
`spacy_senna.runtime.release_memory`, which trims the heap of a long spaCy training to bound its
memory: a labelling process needs about the same memory every batch, so what it keeps it
reuses.)
"""

from __future__ import annotations

import ctypes
import sys
from typing import Callable

from spacy.language import Language
from spacy.util import registry

#: mallopt's parameter numbers (glibc's malloc.h)
M_TRIM_THRESHOLD = -1
M_MMAP_THRESHOLD = -3
#: chunks up to this size come from the heap (glibc's largest allowed mmap threshold)
MMAP_THRESHOLD = 32 * 2**20
#: the heap is trimmed when this much lies free at its top
TRIM_THRESHOLD = 256 * 2**20


def keep_freed_memory() -> bool:
    """Set this process's malloc thresholds; False where there is no glibc `mallopt`."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError):
        return False
    mallopt.argtypes = [ctypes.c_int, ctypes.c_int]
    return bool(mallopt(M_MMAP_THRESHOLD, MMAP_THRESHOLD)) and bool(
        mallopt(M_TRIM_THRESHOLD, TRIM_THRESHOLD)
    )


@registry.callbacks("spacy-senna.keep_freed_memory.v1")
def make_keep_freed_memory() -> Callable[[Language], Language]:
    """`[nlp] after_pipeline_creation` callback: `keep_freed_memory` when the pipeline is
    loaded (or created), for the rest of the process. A pipeline's user turns it off with
    `spacy.load(name, config={"nlp": {"after_pipeline_creation": None}})`."""

    def keep(nlp: Language) -> Language:
        keep_freed_memory()
        return nlp

    return keep
