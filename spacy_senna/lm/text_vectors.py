"""Import of word2vec/GloVe text vectors as a vectors pipeline keyed like the components."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import numpy

from ..features import normalize_word
from ..io.files import require_file
from .corpus import open_corpus_text, warn
from .vectors_pipeline import check_output_dir, write_vectors


def _iter_text_vectors(path: Path) -> Iterator[tuple[int, str, list[str]]]:
    """(line number, word, value fields) of the non-blank lines of a word2vec/GloVe file."""
    with open_corpus_text(path) as handle:
        for number, line in enumerate(handle, start=1):
            if not line.strip():
                continue
            fields = line.rstrip("\n\r").split(" ")
            if len(fields) > 1 and fields[-1] == "":
                fields.pop()
            yield number, fields[0], fields[1:]


def _parse_values(values: list[str], where: str) -> numpy.ndarray:
    """A row of finite float32 values, or ValueError naming the first bad field."""
    try:
        with numpy.errstate(over="ignore"):  # too large for float32: inf, rejected below
            row = numpy.array(values, dtype="float32")
    except ValueError:
        bad = next(value for value in values if not _is_number(value))
        if not bad:
            raise ValueError(f"{where}: an empty value (two spaces in a row)") from None
        raise ValueError(f"{where}: {bad!r} is not a number") from None
    if not numpy.isfinite(row).all():
        bad = values[int(numpy.flatnonzero(~numpy.isfinite(row))[0])]
        raise ValueError(f"{where}: {bad!r} is not a finite float32 number")
    return row


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def import_text_vectors(path: Path, output_dir: Path, *, max_words: int = 0) -> dict[str, int]:
    """Re-key a word2vec/GloVe text file by `normalize_word` and write a pipeline.

    A word2vec header line ("N DIM") gives the dimension and the number of rows (fewer
    rows: an error, the file is truncated). When several surface forms share one
    normalised key ("Paris", "paris", "PARIS"), the **first** row in the file wins:
    word2vec and GloVe write words by decreasing frequency, so this keeps the most
    frequent form. Words containing spaces (the last DIM fields are the values) are
    kept as one word, except in the first row, which sets or checks DIM. A row whose
    value fields are not DIM finite numbers raises ValueError naming file and line.
    """
    path = require_file(path)
    check_output_dir(output_dir)
    keys: list[str] = []
    rows: list[numpy.ndarray] = []
    seen: set[str] = set()
    dim = announced = 0
    n_lines = duplicates = 0
    for number, word, values in _iter_text_vectors(path):
        where = f"{path}:{number}"
        if n_lines == 0 and len(values) == 1 and word.isdigit() and values[0].isdigit():
            announced, dim = int(word), int(values[0])
            if dim < 1:
                raise ValueError(f"{where}: the header announces {dim} dimensions")
            continue
        n_lines += 1
        if not values:
            raise ValueError(f"{where}: a word without values")
        if not dim:
            dim = len(values)
        if len(values) > dim and n_lines > 1:
            word = " ".join([word, *values[: len(values) - dim]])
            values = values[len(values) - dim :]
        if len(values) != dim and announced and n_lines == 1:
            raise ValueError(f"{where}: {len(values)} values, the header announces {dim}")
        if len(values) != dim:
            raise ValueError(f"{where}: {len(values)} values where {dim} were expected")
        row = _parse_values(values, where)
        key = normalize_word(word)
        if key in seen:
            duplicates += 1
            continue
        seen.add(key)
        keys.append(key)
        rows.append(row)
        if max_words and len(keys) >= max_words:
            break
    else:  # read to the end
        if n_lines < announced:
            raise ValueError(
                f"{path}: the header announces {announced:,} vectors, the file has "
                f"{n_lines:,} (truncated?)"
            )
        if announced and n_lines > announced:
            warn(f"{path}: the header announces {announced:,} vectors, the file has {n_lines:,}.")
    if not keys:
        raise ValueError(f"{path}: contains no word vectors")
    if dim != 50:
        warn(
            f"The vectors have {dim} dimensions: set the word feature's width to {dim} "
            "(the SENNA default is 50)."
        )
    write_vectors(keys, numpy.stack(rows), output_dir, name=f"{path.stem}_normalized")
    return {"rows": len(keys), "dim": dim, "lines": n_lines, "merged": duplicates}
