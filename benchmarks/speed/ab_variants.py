"""Variants that `swap_ab.py` swaps in to measure what a change buys (`FILE.py:NAME`)."""

from typing import Any, Hashable


def nothing_kept(self: Any, key: Hashable) -> None:
    """`LastCall.get` that never finds a kept result: every call does its work."""
    return None
