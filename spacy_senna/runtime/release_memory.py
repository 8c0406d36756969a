"""A training callback that hands freed memory back to the operating system.

PyTorch on CPU allocates each step's tensors with the C library's malloc. Steps whose
batches differ in shape leave the freed memory scattered through glibc's heap, which
keeps it: a long SRL training's resident memory then grows well past what any one step
uses. `malloc_trim` returns the free pages of the whole heap; run before updates (the
`[training] before_update` hook), it bounds the process by what a step really holds.
Where the C library has no `malloc_trim` (macOS, musl) the callback does nothing.
"""

import ctypes
from functools import lru_cache
from typing import Any, Callable, Dict, Optional

from spacy.language import Language
from spacy.util import registry


@lru_cache(maxsize=1)
def _malloc_trim() -> Optional[Callable[[int], int]]:
    """The C library's malloc_trim, looked up once, on first use (not at import)."""
    try:
        return ctypes.CDLL(None).malloc_trim
    except (OSError, AttributeError):
        return None


def release_freed_memory() -> bool:
    """Return the C heap's free pages to the OS; False where malloc_trim is missing."""
    trim = _malloc_trim()
    if trim is None:
        return False
    trim(0)
    return True


@registry.callbacks("spacy-senna.release_memory.v1")
def make_release_memory(every: int = 1) -> Callable[[Language, Dict[str, Any]], None]:
    """`[training] before_update` callback: `malloc_trim` every `every` steps.

    every (int): steps between two trims (1 = before every update).
    """
    if every < 1:
        raise ValueError(f"spacy-senna.release_memory.v1 needs every >= 1, got {every}")

    def before_update(nlp: Language, args: Dict[str, Any]) -> None:
        if args["step"] % every == 0:
            release_freed_memory()

    return before_update
