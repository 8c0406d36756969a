"""A shard's bytes -> records `(text, metadata)`, one per doc to annotate.

Text: one doc per non-blank line (as SENNA reads its input) or per blank-line separated
paragraph (its lines joined with spaces); docs longer than `max_doc_chars` are split after
whitespace. JSONL: one doc per `{"text": ...}` line, the record's other keys kept as
metadata; a record is never split.
"""

from __future__ import annotations

import json
import re
from typing import Any, Dict, List, Optional, Tuple

from .shards import Shard

Record = Tuple[str, Optional[Dict[str, Any]]]
ENCODING_ERRORS = ("strict", "replace")
DOC_UNITS = ("line", "paragraph")
_BLANK_LINE = re.compile(r"\n[^\S\n]*\n\s*")
_BOM = b"\xef\xbb\xbf"


class InputError(ValueError):
    """A shard's input cannot be read as asked (bad encoding, bad JSON, ...)."""


def read_shard_bytes(shard: Shard) -> bytes:
    """The raw bytes of the shard."""
    with open(shard.path, "rb") as f:
        f.seek(shard.start)
        return f.read(shard.end - shard.start)


def decode(shard: Shard, data: bytes, errors: str = "strict") -> str:
    """UTF-8 text of the shard (a leading byte-order mark of the file dropped)."""
    if errors not in ENCODING_ERRORS:
        raise ValueError(f"encoding errors must be one of {ENCODING_ERRORS}, got {errors!r}")
    skip = len(_BOM) if shard.start == 0 and data.startswith(_BOM) else 0
    try:
        return data[skip:].decode("utf-8", errors=errors)
    except UnicodeDecodeError as err:
        offset = shard.start + skip + err.start
        bad = data[skip + err.start : skip + err.end].hex(" ")
        raise InputError(
            f"{shard.source}: not UTF-8 at byte offset {offset:,} (byte {bad}); "
            "convert the file to UTF-8 or pass --encoding-errors replace"
        ) from None


def read_records(
    shard: Shard,
    doc_unit: str = "line",
    max_doc_chars: int = 100_000,
    encoding_errors: str = "strict",
) -> List[Record]:
    """The shard's docs as `(text, metadata or None)`."""
    if doc_unit not in DOC_UNITS:
        raise ValueError(f"doc unit must be one of {DOC_UNITS}, got {doc_unit!r}")
    if max_doc_chars < 1:
        raise ValueError(f"max doc chars must be positive, got {max_doc_chars}")
    text = decode(shard, read_shard_bytes(shard), encoding_errors)
    if shard.kind == "jsonl":
        return _jsonl_records(shard, text, max_doc_chars)
    docs = text_docs(text, doc_unit)
    return [(piece, None) for doc in docs for piece in split_long(doc, max_doc_chars)]


def text_docs(text: str, doc_unit: str = "line") -> List[str]:
    """Docs of plain text: stripped non-blank lines, or paragraphs with lines joined."""
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    if doc_unit == "line":
        return [line.strip() for line in text.split("\n") if line.strip()]
    paragraphs = _BLANK_LINE.split(text)
    return [" ".join(p.split("\n")).strip() for p in paragraphs if p.strip()]


def split_long(text: str, max_chars: int) -> List[str]:
    """`text` in pieces of at most `max_chars` characters, cut after whitespace if possible."""
    pieces = []
    while len(text) > max_chars:
        head = text[: max_chars + 1]
        space = max(head.rfind(" "), head.rfind("\t"))
        cut = space + 1 if space > 0 else max_chars
        piece = text[:cut].strip()
        if piece:
            pieces.append(piece)
        text = text[cut:].lstrip()
    if text:
        pieces.append(text)
    return pieces


def _jsonl_records(shard: Shard, text: str, max_doc_chars: int) -> List[Record]:
    records: List[Record] = []
    for number, line in enumerate(text.split("\n")):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError as err:
            raise InputError(f"{_where(shard, number)}: not valid JSON ({err.msg})") from None
        if not isinstance(record, dict) or not isinstance(record.get("text"), str):
            raise InputError(f'{_where(shard, number)}: expected an object with a "text" string')
        text_value = record.pop("text")
        if len(text_value) > max_doc_chars:
            raise InputError(
                f"{_where(shard, number)}: text has {len(text_value):,} characters, more than "
                f"--max-doc-chars {max_doc_chars:,}; split the record or raise --max-doc-chars"
            )
        records.append((text_value, record))
    return records


def _where(shard: Shard, line_in_shard: int) -> str:
    return f"{shard.source}, line {_first_line(shard) + line_in_shard:,}"


def _first_line(shard: Shard) -> int:
    """1-based line number of the shard's first line in its file."""
    if shard.start == 0:
        return 1
    newlines, position = 0, 0
    with open(shard.path, "rb") as f:
        while position < shard.start:
            block = f.read(min(1 << 20, shard.start - position))
            if not block:
                break
            newlines += block.count(b"\n")
            position += len(block)
    return newlines + 1
