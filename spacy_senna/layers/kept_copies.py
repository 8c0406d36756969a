"""Copies of weights that inference reads at every call (bfloat16 casts, transposed or
stacked layouts), made once per version of the tensors they come from.

A tensor's version moves with every in-place change made by torch (an optimizer step:
the senna shim moves it after writing through NumPy; weights loaded into it) and its
storage with a new one, so a copy is made again exactly when its sources changed. The
store is keyed by the first source's id, as tensors compare element by element; an entry
goes when that tensor does."""

import weakref
from typing import Any, Callable, Dict, Iterable, Tuple

from torch import Tensor

#: (id of the first source, purpose) -> (a weak reference to it, the sources' versions and
#: addresses, the copy)
_COPIES: Dict[Tuple[int, str], tuple] = {}


def versions(tensors: Iterable[Tensor]) -> Tuple[Tuple[int, int], ...]:
    """Each tensor's version and address: what moves when it changes in place or anew."""
    return tuple([(t._version, t.data_ptr()) for t in tensors])


def kept_copy(purpose: str, make: Callable[..., Any], *sources: Tensor) -> Any:
    """`make(*sources)` (detached), made again only when a source's version or storage
    moved since; `purpose` names the kind of copy (one tensor may have several)."""
    first = sources[0]
    key = (id(first), purpose)
    moved = versions(sources)
    held = _COPIES.get(key)
    if held is None or held[0]() is not first or held[1] != moved:
        gone = weakref.ref(first, lambda _, at=key: _COPIES.pop(at, None))
        held = (gone, moved, make(*(t.detach() for t in sources)))
        _COPIES[key] = held
    return held[2]
