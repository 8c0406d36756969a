"""Keep the memory a training step frees for the next step (glibc's malloc).

A step of the LM allocates and frees tensors of a few MB. In the Hogwild worker
processes glibc gave that memory back to the system after every step, and the next
step paid a page fault for each 4 KiB page of it again: about 180,000 faults a second
per worker, 40% of its CPU time in the kernel, and two workers hardly faster than one
(benchmarks/lm_pretraining.md, "Twice the words per second"). Fixed thresholds keep
chunks up to 32 MiB in the heap and trim it only when 256 MiB lie free at its top.
(The opposite of `spacy_senna.release_memory`, which trims the heap of a long spaCy
training to bound its memory: a worker's steps need about the same memory every time,
so what it keeps it reuses.)
"""

from __future__ import annotations

import ctypes
import sys

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
