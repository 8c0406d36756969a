"""Raw text for the LM: UTF-8 files (gzipped or not) read as token segments of bounded
length, so that no line, however long, blows memory."""

from __future__ import annotations

import codecs
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from ..features import normalize_word
from ..io.files import require_file
from ..io.text_input import TextLines, open_text

_CHUNK_CHARS = 1 << 20
_SNIFF_BYTES = 1 << 16


def warn(message: str) -> None:
    """A warning on stderr, in the style of spaCy's CLI."""
    print(f"⚠ {message}", file=sys.stderr)


@contextmanager
def open_corpus_text(path: Path) -> Iterator[TextLines]:
    """Open a UTF-8 text file (gzipped or not), rejecting binary files up front.

    Undecodable bytes beyond the sniffed head read as U+FFFD. A missing file or a
    directory raises FileNotFoundError or IsADirectoryError naming the path.
    """
    path = require_file(path)
    with open_text(path, errors="replace") as text:
        head = text.peek(_SNIFF_BYTES)
        try:
            codecs.getincrementaldecoder("utf8")().decode(head, final=False)
            is_text = b"\x00" not in head
        except UnicodeDecodeError:
            is_text = False
        if not is_text:
            raise ValueError(
                f"{path}: does not look like UTF-8 text (binary data in its first "
                f"{len(head)} bytes): expected a plain or gzipped text file"
            )
        yield text


def make_tokenizer(name: str, lang: str = "en") -> Callable[[str], list[str]]:
    """Split a line into tokens: "whitespace", or "spacy" (spaCy's rules for `lang`)."""
    if name == "whitespace":
        return str.split
    if name == "spacy":
        import spacy

        tokenizer = spacy.blank(lang).tokenizer
        return lambda text: [t.text for t in tokenizer(text) if not t.is_space]
    raise ValueError(f"Unknown tokenizer '{name}': use 'whitespace' or 'spacy'.")


def iter_segments(
    path: Path, max_line_tokens: int, tokenize: Callable[[str], list[str]] = str.split
) -> Iterator[tuple[list[str], list[str]]]:
    """(raw tokens, normalised tokens) per line segment of at most `max_line_tokens`."""
    with open_corpus_text(path) as handle:
        carry = ""
        while True:
            piece = handle.readline(_CHUNK_CHARS)
            if len(piece) < _CHUNK_CHARS or piece.endswith("\n"):
                text, carry = carry + piece, ""
            else:
                # a very long line: keep its last (maybe partial) token for later
                text = carry + piece
                cut = max(text.rfind(" "), text.rfind("\t"))
                if cut > 0:
                    text, carry = text[:cut], text[cut:]
                else:
                    # no whitespace at all: a run this long is no word, drop it
                    text, carry = "", ("" if len(text) > _CHUNK_CHARS else text)
            raw = tokenize(text)
            if raw:
                norm = normalize_word(" ".join(raw)).split(" ")
                if len(norm) != len(raw):
                    norm = [normalize_word(token) for token in raw]
                for start in range(0, len(raw), max_line_tokens):
                    end = start + max_line_tokens
                    yield raw[start:end], norm[start:end]
            if not piece:
                break
