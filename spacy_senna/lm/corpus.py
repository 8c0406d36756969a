"""Streaming raw text → LM dictionary and window batches, in bounded memory.

One pass over the input files (plain or gzipped UTF-8, one sentence or paragraph per
line; whitespace tokens, or spaCy's English tokenizer for raw text so the dictionary
holds the tokens the components will see) encodes every token as (type id, caps id)
into two flat files on disk, read back through `numpy.memmap`:

* words are normalised with `normalize_word` (lowercase, digit runs → "0") and caps
  come from `caps_value`, exactly as the supervised components see them;
* every line is followed by `window // 2` PADDING tokens (and the stream starts with
  them), so a window centred on any real token sees PADDING beyond its line's edges;
* lines longer than `max_line_tokens` tokens are split into segments, each padded like
  a line, and physical lines are read at most 1M characters at a time (`raw_text`), so
  a single 100k-character (or 1 GB) line cannot blow memory;
* the first lines, up to `validation_words` tokens, are held out for validation.

Type ids are assigned on first sight; word counts come from `numpy.bincount` over the
encoded stream, and the dictionary is the `vocab_size` most frequent types (ties broken
alphabetically). The type table is exact up to `max_types` distinct words (10M by
default, far above the 330k of the 24M-word Wikipedia sample); later unseen types share
one overflow id that maps to UNKNOWN, which keeps memory bounded on any corpus.

Reading the raw text is in `raw_text`, identifying the input files in `fingerprints`,
the order of the training windows in `sampler`; this module writes and reads the
encoded corpus.
"""

from __future__ import annotations

import json
from array import array
from collections.abc import Sequence
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path

import numpy

from ..features import CAPS_VALUES, caps_value
from ..io.files import atomic_output
from ..layers.lexicon import PADDING, SPECIALS, UNKNOWN, Lexicon
from .fingerprints import fingerprint, same_inputs
from .progress import ReadingProgress
from .raw_text import iter_segments, make_tokenizer, open_corpus_text, warn

__all__ = [
    "CAPS_LEXICON",
    "N_CAPS",
    "CorpusSettings",
    "EncodedCorpus",
    "encode_corpus",
    "load_or_encode",
    "fingerprint",
    "same_inputs",
    "iter_segments",
    "make_tokenizer",
    "open_corpus_text",
    "warn",
]

CAPS_LEXICON = Lexicon.from_words(CAPS_VALUES)
N_CAPS = len(CAPS_LEXICON)
_CAPS_IDS = {value: CAPS_LEXICON.get(value) for value in CAPS_VALUES}
_NOCAPS = _CAPS_IDS["nocaps"]
_OVERFLOW_TYPE = UNKNOWN
FORMAT_VERSION = 1


def _caps_ids(tokens: Sequence[str]) -> list[int]:
    return [_NOCAPS if t.islower() else _CAPS_IDS[caps_value(t)] for t in tokens]


@dataclass
class CorpusSettings:
    """Everything that determines the encoded corpus."""

    vocab_size: int
    window: int = 11
    validation_words: int = 0
    max_line_tokens: int = 1000
    max_types: int = 10_000_000
    tokenizer: str = "whitespace"
    lang: str = "en"

    def to_dict(self) -> dict:
        return dict(self.__dict__)


class EncodedCorpus:
    """A corpus encoded on disk: training stream, validation stream and dictionary.

    A damaged directory (a file missing, unreadable or of the wrong size) raises
    ValueError naming the file.
    """

    def __init__(self, directory: Path) -> None:
        self.directory = Path(directory)
        meta = _read_json(self.directory / "meta.json")
        self.meta = meta
        try:
            self.window = int(meta["settings"]["window"])
            self.n_train_tokens = int(meta["train_tokens"])
            self.n_valid_tokens = int(meta["valid_tokens"])
            n_types = int(meta["types"])
        except (KeyError, TypeError, ValueError):
            raise _damaged(self.directory / "meta.json", "no corpus settings or sizes") from None
        self.pad = self.window // 2
        self.words = self._load("train.words", "int32")
        self.caps = self._load("train.caps", "uint8")
        self.valid_words = self._load("valid.words", "int32")
        self.valid_caps = self._load("valid.caps", "uint8")
        type2row_path = self.directory / "type2row.npy"
        try:
            self.type2row = numpy.load(type2row_path)
        except _READ_ERRORS as err:
            raise _damaged(type2row_path, _reason(err)) from None
        vocab = _read_json(self.directory / "vocab.json")
        self.vocab: list[str] = vocab.get("words")
        self.counts: list[int] = vocab.get("counts")
        if not isinstance(self.vocab, list) or not isinstance(self.counts, list):
            raise _damaged(self.directory / "vocab.json", "no words and counts")
        self._check_sizes(n_types)

    def _load(self, name: str, dtype: str) -> numpy.ndarray:
        path = self.directory / name
        try:
            if path.stat().st_size == 0:
                return numpy.zeros(0, dtype=dtype)
            return numpy.memmap(path, dtype=dtype, mode="r")
        except _READ_ERRORS as err:
            raise _damaged(path, _reason(err)) from None

    def _check_sizes(self, n_types: int) -> None:
        """Raise ValueError naming the file whose size contradicts the others."""
        directory = self.directory
        if len(self.words) < self.pad + self.n_train_tokens:
            raise _damaged(directory / "train.words", "shorter than meta.json says")
        if len(self.valid_words) < self.pad + self.n_valid_tokens:
            raise _damaged(directory / "valid.words", "shorter than meta.json says")
        if len(self.caps) != len(self.words):
            raise _damaged(directory / "train.caps", "not as long as train.words")
        if len(self.valid_caps) != len(self.valid_words):
            raise _damaged(directory / "valid.caps", "not as long as valid.words")
        if len(self.counts) != len(self.vocab):
            raise _damaged(directory / "vocab.json", "not as many counts as words")
        type2row = self.type2row
        if (
            type2row.shape != (n_types + len(SPECIALS),)
            or type2row.dtype.kind not in "iu"
            or not 0 <= type2row.min() <= type2row.max() < self.n_rows
        ):
            raise _damaged(directory / "type2row.npy", "does not match meta.json and vocab.json")

    @property
    def n_rows(self) -> int:
        """Rows of the full word table: PADDING, UNKNOWN and the dictionary."""
        return len(self.vocab) + len(SPECIALS)

    def windows(
        self, positions: numpy.ndarray, n_rows: int, valid: bool = False
    ) -> tuple[numpy.ndarray, numpy.ndarray]:
        """Word rows and caps ids of the windows centred on `positions`.

        Words outside the first `n_rows` rows (a curriculum stage) become UNKNOWN.
        *Shape:* positions (B,) → words (B, W) int64, caps (B, W) int64.
        """
        words, caps = (self.valid_words, self.valid_caps) if valid else (self.words, self.caps)
        index = positions[:, None] + numpy.arange(-self.pad, self.pad + 1)
        rows = self.type2row[words[index]].astype("int64")
        if n_rows < self.n_rows:
            rows[rows >= n_rows] = UNKNOWN
        return rows, caps[index].astype("int64")

    def valid_positions(self) -> numpy.ndarray:
        """Centre positions of every validation window (non-PADDING tokens)."""
        return numpy.flatnonzero(numpy.asarray(self.valid_words) != PADDING)


def encode_corpus(
    paths: Sequence[Path],
    directory: Path,
    settings: CorpusSettings,
    progress_every: float | None = None,
) -> None:
    """Encode `paths` into `directory` (written to a temporary sibling, then renamed),
    with a status line on stderr at most every `progress_every` seconds while reading."""
    with atomic_output(directory, directory=True) as tmp:
        _encode_into(paths, tmp, settings, ReadingProgress(len(paths), progress_every))


def _encode_into(
    paths: Sequence[Path], tmp: Path, settings: CorpusSettings, reading: ReadingProgress
) -> None:
    paths = [Path(p) for p in paths]
    prints = fingerprint(paths)
    tmp.mkdir()
    pad = settings.window // 2
    pads = array("i", [PADDING] * pad)
    pad_caps = bytes([PADDING] * pad)
    types: dict[str, int] = {s: i for i, s in enumerate(SPECIALS)}
    max_types = settings.max_types
    tokenize = make_tokenizer(settings.tokenizer, settings.lang)
    n_valid = n_train = n_segments = 0
    overflowed = False
    with ExitStack() as opened:  # every file is closed, even when closing one fails
        files = {
            name: opened.enter_context((tmp / name).open("wb"))
            for name in ("train.words", "train.caps", "valid.words", "valid.caps")
        }
        for name in ("train", "valid"):
            pads.tofile(files[f"{name}.words"])
            files[f"{name}.caps"].write(pad_caps)
        for path in paths:
            before = n_train + n_valid
            for raw, norm in iter_segments(path, settings.max_line_tokens, tokenize):
                if len(types) < max_types:
                    ids = array("i", [types.setdefault(w, len(types)) for w in norm])
                else:
                    overflowed = True
                    ids = array("i", [types.get(w, _OVERFLOW_TYPE) for w in norm])
                caps = bytes(_caps_ids(raw))
                split = "valid" if n_valid < settings.validation_words else "train"
                if split == "valid":
                    n_valid += len(ids)
                else:
                    n_train += len(ids)
                ids.extend(pads)
                ids.tofile(files[f"{split}.words"])
                files[f"{split}.caps"].write(caps + pad_caps)
                n_segments += 1
                reading.words_read(len(raw))
            reading.file_read()
            if n_train + n_valid == before:
                warn(f"{path}: contains no words.")
    if n_train == 0:
        what = "no words" if n_valid == 0 else f"only {n_valid} words, all held out"
        raise ValueError(
            ", ".join(str(p) for p in paths)
            + f": the input text has {what} for training"
            + (" (lower --validation-words)" if n_valid else "")
        )
    if overflowed:
        warn(
            f"More than {max_types} distinct words: later new words were counted as "
            "UNKNOWN (the dictionary is approximate)."
        )
    words = numpy.memmap(tmp / "train.words", dtype="int32", mode="r")
    counts = numpy.bincount(words, minlength=len(types))
    del words
    counts[: len(SPECIALS)] = 0
    strings = list(types)
    del types
    vocab = _top_words(strings, counts, settings.vocab_size)
    if len(vocab) < settings.vocab_size:
        warn(
            f"The corpus has only {len(vocab)} distinct words, fewer than the requested "
            f"dictionary of {settings.vocab_size}: continuing with {len(vocab)}."
        )
    type2row = numpy.full(len(strings), UNKNOWN, dtype="int32")
    type2row[PADDING] = PADDING
    type2row[vocab] = numpy.arange(len(vocab), dtype="int32") + len(SPECIALS)
    numpy.save(tmp / "type2row.npy", type2row)
    (tmp / "vocab.json").write_text(
        json.dumps(
            {
                "words": [strings[i] for i in vocab],
                "counts": [int(counts[i]) for i in vocab],
            },
            ensure_ascii=False,
        ),
        encoding="utf8",
    )
    meta = {
        "format": FORMAT_VERSION,
        "inputs": prints,
        "settings": settings.to_dict(),
        "train_tokens": n_train,
        "valid_tokens": n_valid,
        "segments": n_segments,
        "types": len(strings) - len(SPECIALS),
    }
    (tmp / "meta.json").write_text(json.dumps(meta, indent=2), encoding="utf8")


def _top_words(strings: list[str], counts: numpy.ndarray, size: int) -> list[int]:
    """Type ids of the `size` most frequent words, ties broken alphabetically."""
    present = numpy.flatnonzero(counts > 0)
    if len(present) > size:
        threshold = numpy.partition(counts[present], len(present) - size)[len(present) - size]
        present = present[counts[present] >= threshold]
    ranked = sorted(present.tolist(), key=lambda i: (-int(counts[i]), strings[i]))
    return ranked[:size]


def load_or_encode(
    paths: Sequence[Path],
    directory: Path,
    settings: CorpusSettings,
    progress_every: float | None = None,
) -> EncodedCorpus:
    """The encoded corpus in `directory`, (re-)encoding it unless it matches the inputs
    (with status lines while reading, as `encode_corpus`).

    The directory is a cache: when it is damaged, a warning names the damaged file and
    the corpus is encoded again (encoding is deterministic: a resumed run goes on
    exactly as it would have).
    """
    directory = Path(directory)
    if (directory / "meta.json").exists():
        try:
            meta = _read_json(directory / "meta.json")
            if (
                meta.get("format") == FORMAT_VERSION
                and same_inputs(meta.get("inputs") or [], fingerprint(paths))
                and meta.get("settings") == settings.to_dict()
            ):
                return EncodedCorpus(directory)
        except _DamagedCache as damage:
            warn(f"{damage}; encoding the corpus again")
    encode_corpus(paths, directory, settings, progress_every)
    return EncodedCorpus(directory)


class _DamagedCache(ValueError):
    """A file of an encoded corpus that is missing, unreadable or of the wrong size."""


#: what reading a damaged (missing, truncated, garbled) cache file raises
_READ_ERRORS = (ValueError, EOFError, FileNotFoundError, IsADirectoryError, NotADirectoryError)


def _damaged(path: Path, problem: str) -> _DamagedCache:
    return _DamagedCache(f"{path}: damaged encoded corpus ({problem})")


def _reason(err: Exception) -> str:
    if isinstance(err, FileNotFoundError):
        return "missing"
    if isinstance(err, IsADirectoryError):
        return "a directory"
    text = str(err).strip()
    return text.splitlines()[0].split(". ")[0] if text else type(err).__name__


def _read_json(path: Path) -> dict:
    """A JSON object from a file of the cache, or _DamagedCache naming it."""
    try:
        data = json.loads(path.read_text(encoding="utf8"))
    except _READ_ERRORS as err:
        raise _damaged(path, _reason(err)) from None
    if not isinstance(data, dict):
        raise _damaged(path, "not a JSON object")
    return data
