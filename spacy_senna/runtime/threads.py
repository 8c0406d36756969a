"""Threads: torch's intra-op threads for the components' hot paths, and the locks that
make one loaded pipeline safe to call from many threads.

Intra-op threads. The networks run many small ops per sentence batch (the CRF recursions
step through time). With several intra-op threads, and especially on a busy machine,
OpenMP synchronisation dominates those ops (measured here: a 45-tag CRF batch took 3.6 s
with 2 threads on a loaded 2-core machine vs 52 ms with 1). Like spaCy's own CPU
components and SENNA itself, the components therefore run single-threaded by default;
set SPACY_SENNA_THREADS=N to change it. The caller's own torch setting is restored after.

Locks. A component fills caches on first use (the ids of new words, attribute-table rows,
lemmas); a web service that shares one pipeline across request threads would race on
them. Each component labels a batch holding its own lock (`inference_lock`), and a cache
that several components share holds its own, so every doc gets exactly what a sequential
call gives; different components still run in different threads at once.
"""

import os
import threading
import weakref

import torch

#: owner -> its lock; weak, so a component's lock goes with it (and is never pickled)
_LOCKS: "weakref.WeakKeyDictionary[object, threading.RLock]" = weakref.WeakKeyDictionary()
_LOCKS_GUARD = threading.Lock()


def component_threads() -> int:
    value = os.environ.get("SPACY_SENNA_THREADS", "1")
    if not value.isdigit() or int(value) < 1:
        raise ValueError(f"SPACY_SENNA_THREADS must be a positive integer, got {value!r}")
    return int(value)


class torch_threads:
    """Run the block with the components' torch thread count (the caller's is restored).
    A plain class, not a generator-based context manager: 1.3 us a call where that
    cost 2."""

    __slots__ = ("_previous",)

    def __enter__(self) -> None:
        previous, wanted = torch.get_num_threads(), component_threads()
        self._previous = previous if wanted != previous else None
        if self._previous is not None:
            torch.set_num_threads(wanted)

    def __exit__(self, *exc) -> None:
        if self._previous is not None:
            torch.set_num_threads(self._previous)


class labelling:
    """Label in the block: the components' torch thread count, and torch's inference
    mode, which skips autograd's bookkeeping (version counters, view tracking) at every
    operation: about 5% of a short text's time, where a call is many small operations.
    Tensors made here (a network's scores, weights' copies kept for labelling) cannot
    join a computation that records gradients later; training never reads them.

    A plain class (not two generator-based context managers): entered once per
    component call, it costs about 3 us where those cost 5."""

    __slots__ = ("_threads", "_mode")

    def __enter__(self) -> None:
        self._threads = torch_threads()
        self._threads.__enter__()
        self._mode = torch.inference_mode()
        self._mode.__enter__()

    def __exit__(self, *exc) -> None:
        try:
            self._mode.__exit__(*exc)
        finally:
            self._threads.__exit__(*exc)


def inference_lock(owner: object) -> threading.RLock:
    """The re-entrant lock of `owner` (a component, a shared cache): held while it reads
    or fills state that a call from another thread would also touch."""
    lock = _LOCKS.get(owner)
    if lock is None:
        with _LOCKS_GUARD:
            lock = _LOCKS.setdefault(owner, threading.RLock())
    return lock
