"""Reading text files: UTF-8, plain or gzipped, with errors that name the file and line.

The corpus converters, gazetteers, LM text and text vectors open their input with
`open_text`. Gzip is recognised by the file's first bytes, not its name.
"""

from __future__ import annotations

import gzip
import io
import zlib
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Literal

GZIP_MAGIC = b"\x1f\x8b"
_READ_ERRORS = (OSError, EOFError, zlib.error)


def is_gzipped(path: Path) -> bool:
    """Whether the file starts with gzip's magic bytes (whatever its name)."""
    with Path(path).open("rb") as raw:
        return raw.read(2) == GZIP_MAGIC


class TextLines:
    """The lines of an open text file, read with `readline` or by iterating.

    In strict mode a line holding bytes that are not UTF-8, or a NUL byte, raises
    ValueError naming the file and the line; in "replace" mode undecodable bytes read as
    U+FFFD. A read failure (a truncated or corrupt gzip stream) raises ValueError naming
    the file.
    """

    def __init__(self, text: io.TextIOWrapper, path: Path, gzipped: bool, strict: bool) -> None:
        self._text = text
        self._path = path
        self._gzipped = gzipped
        self._strict = strict
        self.lineno = 0
        self._line_bytes = 0
        self._at_line_start = True

    def peek(self, size: int) -> bytes:
        """Some of the next (decompressed) bytes, at most `size`, without consuming them.

        Only meaningful before the first `readline`.
        """
        try:
            return self._text.buffer.peek(size)[:size]
        except _READ_ERRORS as err:
            raise self._read_error(err) from None

    def readline(self, size: int = -1) -> str:
        """The next line, or at most `size` characters of it ("" at the end)."""
        try:
            piece = self._text.readline(size)
        except _READ_ERRORS as err:
            raise self._read_error(err) from None
        if not piece:
            return piece
        if self._at_line_start:
            self.lineno += 1
            self._line_bytes = 0
        self._at_line_start = piece.endswith("\n")
        if self._strict:
            self._check(piece)
        return piece

    def _read_error(self, err: Exception) -> ValueError:
        kind = "gzip " if self._gzipped else ""
        return ValueError(f"{self._path}: cannot read {kind}data: {err}")

    def _check(self, piece: str) -> None:
        if "\x00" in piece:
            raise ValueError(
                f"{self._path}:{self.lineno}: expected a text file, found binary data (NUL byte)"
            )
        if piece.isascii():
            self._line_bytes += len(piece)
            return
        data = piece.encode("utf8", "surrogateescape")
        try:
            data.decode("utf8")
        except UnicodeDecodeError as err:
            raise ValueError(
                f"{self._path}:{self.lineno}: expected UTF-8 text "
                f"({err.reason} at byte {self._line_bytes + err.start})"
            ) from None
        self._line_bytes += len(data)

    def __iter__(self) -> Iterator[str]:
        return iter(self.readline, "")


@contextmanager
def open_text(
    path: Path,
    *,
    errors: Literal["strict", "replace"] = "strict",
    newline: Literal["\n"] | None = None,
) -> Iterator[TextLines]:
    """Open a UTF-8 text file for reading, gunzipping it when it is gzipped.

    `errors`: "strict" rejects undecodable bytes and NUL bytes with a ValueError naming
    the file and the line; "replace" reads undecodable bytes as U+FFFD. `newline` is
    Python's: None splits lines at "\\n", "\\r" and "\\r\\n" and translates them to
    "\\n"; "\\n" splits at "\\n" only and keeps a "\\r" before it.
    A missing file raises FileNotFoundError.
    """
    path = Path(path)
    gzipped = is_gzipped(path)
    opener = gzip.open if gzipped else open
    decode_errors = "surrogateescape" if errors == "strict" else errors
    with opener(path, "rb") as stream:
        text = io.TextIOWrapper(stream, encoding="utf8", errors=decode_errors, newline=newline)
        with text:
            yield TextLines(text, path, gzipped, strict=errors == "strict")
