"""Import of word2vec/GloVe text vectors as a vectors pipeline keyed like the components."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import numpy

from ..features import normalize_word
from ..files import require_file
from .corpus import open_corpus_text, warn
from .vectors_pipeline import check_output_dir, write_vectors


def _iter_text_vectors(path: Path) -> Iterator[tuple[int, str, list[str]]]:
    """(line number, word, value fields) of a word2vec/GloVe text file."""
    with open_corpus_text(path) as handle:
        for number, line in enumerate(handle, start=1):
            fields = line.rstrip("\n\r").split(" ")
            if len(fields) < 2 or not line.strip():
                continue
            yield number, fields[0], fields[1:]


def import_text_vectors(path: Path, output_dir: Path, *, max_words: int = 0) -> dict[str, int]:
    """Re-key a word2vec/GloVe text file by `normalize_word` and write a pipeline.

    A word2vec header line ("N DIM") is skipped. When several surface forms share one
    normalised key ("Paris", "paris", "PARIS"), the **first** row in the file wins:
    word2vec and GloVe write words by decreasing frequency, so this keeps the most
    frequent form. Words whose value fields are not DIM numbers raise ValueError;
    words containing spaces (the last DIM fields are the values) are kept as one word.
    """
    path = require_file(path)
    check_output_dir(output_dir)
    keys: list[str] = []
    rows: list[numpy.ndarray] = []
    seen: set[str] = set()
    dim = 0
    n_lines = duplicates = 0
    for number, word, values in _iter_text_vectors(path):
        if n_lines == 0 and len(values) == 1 and word.isdigit() and values[0].isdigit():
            dim = int(values[0])
            continue
        n_lines += 1
        if values and values[-1] == "":
            values = values[:-1]
        if not dim:
            dim = len(values)
        if len(values) > dim:
            word = " ".join([word, *values[: len(values) - dim]])
            values = values[len(values) - dim :]
        if len(values) != dim:
            raise ValueError(f"{path}:{number}: {len(values)} values where {dim} were expected")
        key = normalize_word(word)
        if key in seen:
            duplicates += 1
            continue
        try:
            row = numpy.array(values, dtype="float32")
        except ValueError:
            raise ValueError(f"{path}:{number}: the values are not numbers") from None
        seen.add(key)
        keys.append(key)
        rows.append(row)
        if max_words and len(keys) >= max_words:
            break
    if not keys:
        raise ValueError(f"{path}: contains no word vectors")
    if dim != 50:
        warn(
            f"The vectors have {dim} dimensions: set the word feature's width to {dim} "
            "(the SENNA default is 50)."
        )
    write_vectors(keys, numpy.stack(rows), output_dir, name=f"{path.stem}_normalized")
    return {"rows": len(keys), "dim": dim, "lines": n_lines, "merged": duplicates}
