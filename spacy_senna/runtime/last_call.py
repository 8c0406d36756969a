"""The result of the last call, kept with its inputs' key: work several components ask
for in turn (senna_words' ids and lookup, read by the tagger and then the chunker) is
done once per doc.

One slot, replaced as a whole (one tuple), so a thread reads either the old pair or the
new one, never a key with another call's result; a key that differs costs one
comparison. The key must hold everything the result depends on (the inputs' bytes, the
weights' versions), so a hit gives exactly what the call would.
"""

from typing import Any, Hashable, Optional, Tuple


class LastCall:
    """A one-slot memo: `get(key)` gives the result `keep(key, result)` kept, or None."""

    __slots__ = ("_held",)

    def __init__(self) -> None:
        self._held: Optional[Tuple[Hashable, Any]] = None

    def get(self, key: Hashable) -> Any:
        held = self._held
        return held[1] if held is not None and held[0] == key else None

    def keep(self, key: Hashable, result: Any) -> Any:
        self._held = (key, result)
        return result

    def clear(self) -> None:
        self._held = None
