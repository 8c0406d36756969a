"""The CoNLL-2005 props format: a target column, then one Start-End column per predicate.

    -        (A0*    *
    said     (V*)    *
    the      (A1*    (A0*
    company  *       *)
    will     *       (AM-MOD*)
    go       *)      (V*)

The target column holds the predicate's lemma (any string but `-`) on each predicate's line
and `-` elsewhere; the k-th Start-End column belongs to the k-th predicate from the top.
Sentences are separated by blank lines; fields by ASCII whitespace (as Perl's `split " "`).
Tags are read the way CoNLL-2005's `srl-eval.pl` reads them (`(A0*`, `*`, `*)`, `*A0)`,
`(A0*)`), except that nested arguments in one column are refused with a ValueError.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from ..io.text_input import open_text
from ..labels.tags import Chunk

NOT_A_PREDICATE = "-"
_FIELD = re.compile(r"[^ \t\n\r\f\v]+")
# srl-eval.pl's phrase_set->load_SE_tagging: an opening `(TYPE`, a closing `TYPE)`
_OPENING = re.compile(r"\(((?:\\\*|[^*(])+)")
_CLOSING = re.compile(r"([^)]*)\)")


@dataclass
class PropsSentence:
    """One sentence of a props file: its target column and its Start-End columns."""

    path: Path
    linenos: list[int]
    targets: list[str]
    columns: list[list[str]]

    @property
    def first_line(self) -> int:
        return self.linenos[0]

    def predicates(self) -> list[int]:
        """The token index of each predicate, in column order."""
        return [i for i, target in enumerate(self.targets) if target != NOT_A_PREDICATE]

    def frames(self) -> dict[int, list[Chunk]]:
        """{predicate token: [(label, start, end), ...]} read from its column (V included)."""
        return {
            predicate: start_end_chunks(column, self.path, self.linenos, k + 2)
            for k, (predicate, column) in enumerate(zip(self.predicates(), self.columns))
        }


def read_props(path: str | os.PathLike) -> Iterator[PropsSentence]:
    """The sentences of a props file (UTF-8, plain or gzipped).

    Every line of a sentence must have as many fields as its first line, one more than the
    number of predicates in its target column; a ValueError names the file and line if
    not. Runs of blank lines count as one sentence break.
    """
    path = Path(path)
    linenos: list[int] = []
    rows: list[list[str]] = []
    with open_text(path, newline="\n") as lines:
        for line in lines:
            fields = _FIELD.findall(line)
            if fields:
                linenos.append(lines.lineno)
                rows.append(fields)
            elif rows:
                yield _sentence(path, linenos, rows)
                linenos, rows = [], []
    if rows:
        yield _sentence(path, linenos, rows)


def _sentence(path: Path, linenos: list[int], rows: list[list[str]]) -> PropsSentence:
    width = len(rows[0])
    for lineno, fields in zip(linenos, rows):
        if len(fields) != width:
            raise ValueError(
                f"{path}:{lineno}: expected {width} columns like the first line of its "
                f"sentence (line {linenos[0]}), found {len(fields)}"
            )
    targets = [fields[0] for fields in rows]
    n_predicates = sum(target != NOT_A_PREDICATE for target in targets)
    if n_predicates != width - 1:
        raise ValueError(
            f"{path}:{linenos[0]}: the sentence marks {n_predicates} predicates in its target "
            f"column (the first) but has {width - 1} argument columns"
        )
    columns = [[fields[k] for fields in rows] for k in range(1, width)]
    return PropsSentence(path, list(linenos), targets, columns)


def start_end_chunks(
    tags: Sequence[str], path: str | os.PathLike, linenos: Sequence[int], column: int
) -> list[Chunk]:
    """(label, start, end) of the arguments in one Start-End column, in token order.

    Accepts what srl-eval.pl accepts (a closing may repeat its label: `*A0)`); a tag it
    rejects, a closing with nothing open or an unclosed argument raises ValueError naming
    `path`, the line and the column (1-based), and so does an argument opening inside
    another one.
    """
    chunks: list[Chunk] = []
    open_label: str | None = None
    start = 0
    for i, tag in enumerate(tags):
        where = f"{path}:{linenos[i]}: column {column}"
        rest = tag
        while not rest.startswith("*"):
            opening = _OPENING.match(rest)
            if opening is None:
                raise ValueError(
                    f"{where}: expected a Start-End tag like (A0*, *, *) or (V*), found {tag!r}"
                )
            if open_label is not None:
                raise ValueError(
                    f"{where}: argument {opening[1]!r} opens inside {open_label!r} "
                    "(nested arguments in one column are not supported)"
                )
            open_label, start = opening[1], i
            rest = rest[opening.end() :]
        rest = rest[1:]
        while rest:
            closing = _CLOSING.match(rest)
            if closing is None:
                raise ValueError(
                    f"{where}: expected a Start-End tag like (A0*, *, *) or (V*), found {tag!r}"
                )
            if open_label is None:
                raise ValueError(f"{where}: {tag!r} closes an argument but none is open")
            if closing[1] and closing[1] != open_label:
                raise ValueError(
                    f"{where}: {tag!r} closes {closing[1]!r} but {open_label!r} is open"
                )
            chunks.append((open_label, start, i + 1))
            open_label = None
            rest = rest[closing.end() :]
    if open_label is not None:
        raise ValueError(
            f"{path}:{linenos[start]}: column {column}: argument {open_label!r} is never closed"
        )
    return chunks


def start_end_column(length: int, chunks: Sequence[Chunk]) -> list[str]:
    """One Start-End column (`(A0*`, `*`, `*)`, `(V*)`) for non-overlapping chunks."""
    column = ["*"] * length
    for label, start, end in chunks:
        column[start] = f"({label}{column[start]}"
        column[end - 1] = f"{column[end - 1]})"
    return column


def props_lines(targets: Sequence[str], frames: Sequence[Sequence[Chunk]]) -> list[str]:
    """A sentence's props lines, ending with the blank line: the target column (`-` for
    no predicate) and one Start-End column per predicate, top to bottom."""
    for target in targets:
        if not _FIELD.fullmatch(target):
            raise ValueError(f"a target must be one non-blank field, found {target!r}")
    n_predicates = sum(target != NOT_A_PREDICATE for target in targets)
    if len(frames) != n_predicates:
        raise ValueError(f"{n_predicates} predicates in the target column, {len(frames)} frames")
    columns = [list(targets)] + [start_end_column(len(targets), chunks) for chunks in frames]
    return [" ".join(row) for row in zip(*columns)] + [""]
