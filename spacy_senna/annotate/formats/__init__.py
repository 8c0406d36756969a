"""Output formats: each turns annotated docs into the bytes of one shard's output file."""

from __future__ import annotations

from typing import Dict, Type

from .base import DocFormat
from .conll import ConllFormat
from .docbin import DocBinFormat
from .jsonl import JsonlFormat
from .senna import SennaFormat

FORMATS: Dict[str, Type[DocFormat]] = {
    "senna": SennaFormat,
    "conll": ConllFormat,
    "jsonl": JsonlFormat,
    "spacy": DocBinFormat,
}


def get_format(name: str) -> Type[DocFormat]:
    """The format class called `name`."""
    if name not in FORMATS:
        raise ValueError(f"Unknown format {name!r}; choose one of {', '.join(FORMATS)}")
    return FORMATS[name]


__all__ = ["FORMATS", "DocFormat", "get_format"]
