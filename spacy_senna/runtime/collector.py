"""Python's cyclic garbage collector paused while a component labels a batch.

Labelling a batch of `nlp.pipe` makes tens of thousands of short-lived Python objects (each
row's decoded chunks, frames, spans) that live until the batch is written, then die by
reference counting. With the collector running they outlive its young generations, so each
batch promotes them to the oldest one, and every few batches the collector walks the whole
heap (the loaded pipelines' objects included) to find nothing: 4.6-6.7% of en_senna's
`nlp.pipe` time on Wikipedia paragraphs, 0.3-1.0% paused (`benchmarks/speed/
collector_share.py`). Paused for the batch, those objects are freed before the collector
ever sees them; cyclic garbage made in the meantime is collected once it runs again. The
pause never spans a `yield`, so the caller's code between docs always runs with the
collector on; the pause is the process's, so another thread's code running during a batch
runs without it for that long.
"""

import gc
from contextlib import contextmanager
from typing import Iterator


@contextmanager
def collector_paused() -> Iterator[None]:
    """Pause the cyclic garbage collector for the block, unless it is already off (the
    caller's choice, or another thread's pause: then it stays as it is)."""
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()
