"""Word vectors as spaCy pipeline directories: `write_vectors` and `read_vectors`.

The output of `write_vectors` is what `spacy init vectors` writes: a blank pipeline (of
the language the vectors are for, English by default) whose `vocab.vectors` holds one row
per word, keyed by the `normalize_word` form the supervised components look up, so
`[initialize] vectors = OUTPUT_DIR` works.
PADDING and UNKNOWN rows are not exported.
"""

from __future__ import annotations

import configparser
import errno
import json
from collections.abc import Sequence
from pathlib import Path

import numpy
import spacy
import srsly
from spacy.language import Language
from spacy.vectors import Vectors
from thinc.api import ConfigValidationError
from thinc.util import to_numpy

from ..io.files import atomic_output, check_directory


def write_vectors(
    words: Sequence[str],
    table: numpy.ndarray,
    output_dir: Path,
    *,
    name: str,
    meta: dict | None = None,
    lang: str = "en",
) -> None:
    """Write a blank `lang` pipeline with `table` keyed by `words` to `output_dir`.

    The pipeline is written to a temporary sibling and renamed into place, so an
    interrupted run never leaves a half-written `output_dir`. `meta`, if given, is
    written to OUTPUT_DIR/lm_meta.json.
    *Shape:* table (len(words), dim) float32.
    """
    output_dir = Path(output_dir)
    if len(words) != len(table):
        raise ValueError(f"{len(words)} words but {len(table)} vector rows.")
    check_output_dir(output_dir)
    nlp = spacy.blank(lang)
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
    """Fail early, with the error `atomic_output` would raise at the end, when
    `output_dir` cannot become a directory (it is a file, or a parent is); nothing is
    created before there is something to write."""
    check_directory(output_dir)


def read_vectors(path: Path) -> tuple[list[str], numpy.ndarray]:
    """(words, table) of a pipeline directory's `vocab.vectors`, in row order.

    A missing or damaged pipeline raises an error naming the directory or, where it can
    be told, the damaged file.
    """
    path = Path(path)
    if not path.exists():
        raise FileNotFoundError(errno.ENOENT, "pipeline directory not found", str(path))
    if not path.is_dir():
        raise NotADirectoryError(errno.ENOTDIR, "expected a pipeline directory", str(path))
    nlp = _load_pipeline(path)
    vectors = nlp.vocab.vectors
    if vectors.n_keys == 0:
        raise ValueError(f"{path}: the pipeline has no word vectors")
    row2key = {row: key for key, row in vectors.key2row.items()}
    rows = sorted(row2key)
    data = to_numpy(vectors.data)  # CuPy under spacy.require_gpu
    if data.ndim != 2 or rows[-1] >= len(data):
        raise ValueError(
            f"{path / 'vocab'}: the vector table (shape {data.shape}) does not match its "
            f"keys (rows up to {rows[-1]})"
        )
    words = [nlp.vocab.strings[row2key[row]] for row in rows]
    return words, data[rows]


#: the data files of a pipeline directory spaCy reads, and a reader of each format
_DATA_FILES = {
    "meta.json": srsly.read_json,
    "tokenizer": srsly.read_msgpack,
    "vocab/strings.json": srsly.read_json,
    "vocab/vectors.cfg": srsly.read_json,
    "vocab/key2row": srsly.read_msgpack,
    "vocab/lookups.bin": srsly.read_msgpack,
    "vocab/vectors": numpy.load,
}


def _load_pipeline(path: Path) -> Language:
    """`spacy.load(path)`, with a ValueError naming the damaged file when it fails."""
    config_path = path / "config.cfg"
    if not config_path.is_file():
        raise ValueError(f"{path}: not a spaCy pipeline directory (no config.cfg)")
    try:
        config = spacy.util.load_config(config_path)
    except (ValueError, configparser.Error) as err:
        raise ValueError(f"{config_path}: not a valid pipeline config ({_reason(err)})") from None
    if "nlp" not in config:
        raise ValueError(f"{config_path}: not a pipeline config (no [nlp] section)")
    try:
        return spacy.load(path)
    except ConfigValidationError as err:
        raise ValueError(f"{config_path}: not a valid pipeline config ({_reason(err)})") from None
    except (ValueError, EOFError, TypeError, AttributeError, KeyError) as err:
        # a file spaCy cannot parse, or one of the wrong structure (a list for a dict)
        for name, read in _DATA_FILES.items():
            data_path = path / name
            if data_path.is_file():
                try:
                    read(data_path)
                except (ValueError, EOFError) as damage:
                    problem = f"damaged or not a spaCy data file ({_reason(damage)})"
                    raise ValueError(f"{data_path}: {problem}") from None
        kind = "" if isinstance(err, ValueError) else f"{type(err).__name__}: "
        raise ValueError(f"{path}: cannot load the pipeline ({kind}{_reason(err)})") from None


def _reason(err: Exception) -> str:
    """A short account of an error: its first sentence, or the fields a config lacks."""
    if isinstance(err, ConfigValidationError) and err.errors:
        return "; ".join(f"{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in err.errors)
    text = getattr(err, "desc", None) or str(err)
    paragraphs = [part.strip() for part in text.split("\n\n") if part.strip()]
    if not paragraphs:
        return type(err).__name__
    return paragraphs[-1].splitlines()[0].split(". ")[0]
