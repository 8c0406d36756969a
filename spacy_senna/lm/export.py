"""Word vectors as spaCy pipeline directories, text-vector import, nearest neighbours.

The output of `write_vectors` is what `spacy init vectors` writes: a blank English
pipeline whose `vocab.vectors` holds one row per word, keyed by the `normalize_word`
form the supervised components look up, so `[initialize] vectors = OUTPUT_DIR` works.
PADDING and UNKNOWN rows are not exported.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from collections.abc import Iterator, Sequence
from pathlib import Path

import numpy
import spacy
from spacy.vectors import Vectors

from ..features import normalize_word
from .corpus import open_corpus_text, warn

#: the query words of paper Table 7
PAPER_QUERIES = ("france", "jesus", "xbox", "reddish", "scratched", "megabits")


def write_vectors(
    words: Sequence[str],
    table: numpy.ndarray,
    output_dir: Path,
    *,
    name: str,
    meta: dict | None = None,
) -> None:
    """Write a blank "en" pipeline with `table` keyed by `words` to `output_dir`.

    The pipeline is written to a temporary sibling and renamed into place, so an
    interrupted run never leaves a half-written `output_dir`. `meta`, if given, is
    written to OUTPUT_DIR/lm_meta.json.
    *Shape:* table (len(words), dim) float32.
    """
    output_dir = Path(output_dir)
    if len(words) != len(table):
        raise ValueError(f"{len(words)} words but {len(table)} vector rows.")
    if output_dir.exists() and not output_dir.is_dir():
        raise ValueError(f"The output path {output_dir} exists and is not a directory.")
    nlp = spacy.blank("en")
    for word in words:
        nlp.vocab.strings.add(word)
    nlp.vocab.vectors = Vectors(
        strings=nlp.vocab.strings,
        data=numpy.ascontiguousarray(table, dtype="float32"),
        keys=list(words),
        name=name,
    )
    nlp.meta["vectors"]["name"] = name
    output_dir.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{output_dir.name}.tmp-", dir=output_dir.parent))
    try:
        nlp.to_disk(tmp)
        if meta is not None:
            (tmp / "lm_meta.json").write_text(
                json.dumps(meta, indent=2, ensure_ascii=False), encoding="utf8"
            )
        old = None
        if output_dir.exists():
            old = output_dir.with_name(f".{output_dir.name}.old-{os.getpid()}")
            os.replace(output_dir, old)
        os.replace(tmp, output_dir)
        if old is not None:
            shutil.rmtree(old, ignore_errors=True)
    finally:
        if tmp.exists():
            shutil.rmtree(tmp, ignore_errors=True)


def read_vectors(path: Path) -> tuple[list[str], numpy.ndarray]:
    """(words, table) of a pipeline directory's `vocab.vectors`, in row order."""
    path = Path(path)
    if not (path / "config.cfg").exists():
        raise ValueError(f"{path} is not a spaCy pipeline directory (no config.cfg).")
    nlp = spacy.load(path)
    vectors = nlp.vocab.vectors
    if vectors.n_keys == 0:
        raise ValueError(f"The pipeline in {path} has no word vectors.")
    row2key = {row: key for key, row in vectors.key2row.items()}
    rows = sorted(row2key)
    words = [nlp.vocab.strings[row2key[row]] for row in rows]
    return words, numpy.asarray(vectors.data)[rows]


def nearest_neighbours(
    words: Sequence[str], table: numpy.ndarray, queries: Sequence[str], k: int = 10
) -> dict[str, list[tuple[str, float]] | None]:
    """The `k` nearest words (Euclidean, like paper Table 7) of each query.

    Queries are normalised with `normalize_word`; a query without a vector maps to None.
    *Shape:* table (len(words), dim).
    """
    index = {w: i for i, w in enumerate(words)}
    found = [(q, index[normalize_word(q)]) for q in queries if normalize_word(q) in index]
    result: dict[str, list[tuple[str, float]] | None] = {q: None for q in queries}
    if not found or k < 1:
        return result
    data = numpy.asarray(table, dtype="float32")
    rows = numpy.array([i for _, i in found])
    norms = (data * data).sum(1)
    dist2 = norms[rows, None] - 2.0 * data[rows] @ data.T + norms[None, :]
    dist2[numpy.arange(len(rows)), rows] = numpy.inf
    n = min(k, len(words) - 1)
    if n < 1:
        return {q: ([] if r is None else r) for q, r in result.items()}
    nearest = numpy.argpartition(dist2, n - 1, axis=1)[:, :n]
    for (query, _), cand, d2 in zip(found, nearest, dist2):
        order = cand[numpy.argsort(d2[cand])]
        result[query] = [(words[j], float(numpy.sqrt(max(d2[j], 0.0)))) for j in order]
    return result


def format_neighbours(
    neighbours: dict[str, list[tuple[str, float]] | None], words: Sequence[str]
) -> str:
    """A plain-text report: one line per query with its dictionary rank (1-based)."""
    rank = {w: i + 1 for i, w in enumerate(words)}
    lines = []
    for query, found in neighbours.items():
        key = normalize_word(query)
        if found is None:
            lines.append(f"{query}: (no vector)")
            continue
        items = ", ".join(f"{w} ({d:.2f})" for w, d in found)
        lines.append(f"{key} (rank {rank.get(key, '?')}): {items}")
    return "\n".join(lines)


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
    path = Path(path)
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
            raise ValueError(
                f"{path}, line {number}: {len(values)} values where {dim} were expected."
            )
        key = normalize_word(word)
        if key in seen:
            duplicates += 1
            continue
        try:
            row = numpy.array(values, dtype="float32")
        except ValueError:
            raise ValueError(f"{path}, line {number}: the values are not numbers.") from None
        seen.add(key)
        keys.append(key)
        rows.append(row)
        if max_words and len(keys) >= max_words:
            break
    if not keys:
        raise ValueError(f"{path} contains no word vectors.")
    if dim != 50:
        warn(
            f"The vectors have {dim} dimensions: set the word feature's width to {dim} "
            "(the SENNA default is 50)."
        )
    write_vectors(keys, numpy.stack(rows), output_dir, name=f"{path.stem}_normalized")
    return {"rows": len(keys), "dim": dim, "lines": n_lines, "merged": duplicates}
