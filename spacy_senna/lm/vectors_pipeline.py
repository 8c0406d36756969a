"""Word vectors as spaCy pipeline directories: `write_vectors` and `read_vectors`.

The output of `write_vectors` is what `spacy init vectors` writes: a blank English
pipeline whose `vocab.vectors` holds one row per word, keyed by the `normalize_word`
form the supervised components look up, so `[initialize] vectors = OUTPUT_DIR` works.
PADDING and UNKNOWN rows are not exported.
"""

from __future__ import annotations

import errno
import json
from collections.abc import Sequence
from pathlib import Path

import numpy
import spacy
from spacy.vectors import Vectors

from ..files import atomic_output, make_directory


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
    check_output_dir(output_dir)
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
    with atomic_output(output_dir, directory=True) as tmp:
        nlp.to_disk(tmp)
        if meta is not None:
            (tmp / "lm_meta.json").write_text(
                json.dumps(meta, indent=2, ensure_ascii=False), encoding="utf8"
            )


def check_output_dir(output_dir: Path) -> None:
    """Fail early, naming the path, when `output_dir` cannot become a directory (it is
    a file, or a parent is); its parent is created."""
    output_dir = Path(output_dir)
    if output_dir.exists() and not output_dir.is_dir():
        raise NotADirectoryError(errno.ENOTDIR, "exists and is not a directory", str(output_dir))
    make_directory(output_dir.parent)


def read_vectors(path: Path) -> tuple[list[str], numpy.ndarray]:
    """(words, table) of a pipeline directory's `vocab.vectors`, in row order."""
    path = Path(path)
    if not path.exists():
        raise FileNotFoundError(errno.ENOENT, "pipeline directory not found", str(path))
    if not path.is_dir():
        raise NotADirectoryError(errno.ENOTDIR, "expected a pipeline directory", str(path))
    if not (path / "config.cfg").is_file():
        raise ValueError(f"{path}: not a spaCy pipeline directory (no config.cfg)")
    nlp = spacy.load(path)
    vectors = nlp.vocab.vectors
    if vectors.n_keys == 0:
        raise ValueError(f"{path}: the pipeline has no word vectors")
    row2key = {row: key for key, row in vectors.key2row.items()}
    rows = sorted(row2key)
    words = [nlp.vocab.strings[row2key[row]] for row in rows]
    return words, numpy.asarray(vectors.data)[rows]
