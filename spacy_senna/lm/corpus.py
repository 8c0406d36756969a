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
  a line, and physical lines are read at most `_CHUNK_CHARS` characters at a time, so
  a single 100k-character (or 1 GB) line cannot blow memory;
* the first lines, up to `validation_words` tokens, are held out for validation.

Type ids are assigned on first sight; word counts come from `numpy.bincount` over the
encoded stream, and the dictionary is the `vocab_size` most frequent types (ties broken
alphabetically). The type table is exact up to `max_types` distinct words (10M by
default, far above the 330k of the 24M-word Wikipedia sample); later unseen types share
one overflow id that maps to UNKNOWN, which keeps memory bounded on any corpus.
"""

from __future__ import annotations

import codecs
import hashlib
import json
import sys
from array import array
from collections.abc import Callable, Iterator, Sequence
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path

import numpy

from ..features import CAPS_VALUES, caps_value, normalize_word
from ..files import atomic_output, require_file
from ..lexicon import PADDING, SPECIALS, UNKNOWN, Lexicon
from ..text_input import TextLines, open_text

CAPS_LEXICON = Lexicon.from_words(CAPS_VALUES)
N_CAPS = len(CAPS_LEXICON)
_CAPS_IDS = {value: CAPS_LEXICON.get(value) for value in CAPS_VALUES}
_NOCAPS = _CAPS_IDS["nocaps"]
_OVERFLOW_TYPE = UNKNOWN
_CHUNK_CHARS = 1 << 20
_SNIFF_BYTES = 1 << 16
FORMAT_VERSION = 1


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


def make_tokenizer(name: str) -> Callable[[str], list[str]]:
    """Split a line into tokens: "whitespace", or "spacy" (spaCy's English rules)."""
    if name == "whitespace":
        return str.split
    if name == "spacy":
        import spacy

        tokenizer = spacy.blank("en").tokenizer
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


def _caps_ids(tokens: Sequence[str]) -> list[int]:
    return [_NOCAPS if t.islower() else _CAPS_IDS[caps_value(t)] for t in tokens]


def fingerprint(paths: Sequence[Path]) -> list[dict]:
    """Identify input files by resolved path, size and a hash of their first and last bytes.

    The modification time is kept too, but only to compare with fingerprints written
    before the hash existed: a copied or re-mounted file with the same bytes still matches.
    """
    out = []
    for path in paths:
        path = require_file(path)
        stat = path.stat()
        out.append(
            {
                "path": str(path.resolve()),
                "size": stat.st_size,
                "sample": _edge_hash(path, stat.st_size),
                "mtime": stat.st_mtime,
            }
        )
    return out


def same_inputs(saved: Sequence[dict], current: Sequence[dict]) -> bool:
    """Whether fingerprints `saved` earlier describe the files of `current`."""
    if len(saved) != len(current):
        return False
    for old, new in zip(saved, current):
        content = "sample" if "sample" in old else "mtime"
        if any(old.get(key) != new[key] for key in ("path", "size", content)):
            return False
    return True


def _edge_hash(path: Path, size: int, edge: int = 1 << 16) -> str:
    with path.open("rb") as handle:
        digest = hashlib.sha256(handle.read(edge))
        handle.seek(max(size - edge, 0))
        digest.update(handle.read(edge))
    return digest.hexdigest()


@dataclass
class CorpusSettings:
    """Everything that determines the encoded corpus."""

    vocab_size: int
    window: int = 11
    validation_words: int = 0
    max_line_tokens: int = 1000
    max_types: int = 10_000_000
    tokenizer: str = "whitespace"

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


class WindowSampler:
    """Shuffled, resumable pass over all training windows, in bounded memory.

    Each epoch cuts the stream into pieces of `piece_tokens` positions, shuffles them and
    visits them `pieces_per_block` at a time, the positions of a block in random order:
    every real token is the centre of exactly one window per epoch, and every batch mixes
    text from all over the corpus. (Whole 1M-token chunks in turn, the layout before,
    fed ~1,000 batches of one file's text in a row: a chunk of Reuters tables moved the
    model away from everything else and the held-out loss jumped ten-fold.) The orders
    come from (seed, epoch, block), so the state is a few integers.
    """

    def __init__(
        self,
        corpus: EncodedCorpus,
        batch_size: int,
        seed: int,
        piece_tokens: int = 1 << 14,
        pieces_per_block: int = 64,
    ) -> None:
        self.corpus = corpus
        self.batch_size = batch_size
        self.seed = seed
        self._set_layout(piece_tokens, pieces_per_block)
        self.epoch = 0
        self.block = 0
        self.offset = 0
        self.consumed_in_epoch = 0
        self._order: numpy.ndarray | None = None
        self._positions: numpy.ndarray | None = None

    def _set_layout(self, piece_tokens: int, pieces_per_block: int) -> None:
        self.piece_tokens = piece_tokens
        self.pieces_per_block = pieces_per_block
        self.n_pieces = max(1, -(-len(self.corpus.words) // piece_tokens))
        self.n_blocks = -(-self.n_pieces // pieces_per_block)

    def state(self) -> dict[str, int]:
        return {
            "epoch": self.epoch,
            "chunk": self.block,
            "offset": self.offset,
            "consumed_in_epoch": self.consumed_in_epoch,
            "piece_tokens": self.piece_tokens,
            "pieces_per_block": self.pieces_per_block,
        }

    def load_state(self, state: dict[str, int]) -> None:
        # a checkpoint without a layout was written by the one-chunk-at-a-time sampler
        self._set_layout(
            int(state.get("piece_tokens", 1 << 20)), int(state.get("pieces_per_block", 1))
        )
        self.epoch = int(state["epoch"])
        self.block = int(state["chunk"])
        self.offset = int(state["offset"])
        self.consumed_in_epoch = int(state["consumed_in_epoch"])
        self._order = None
        self._positions = None

    def _block_positions(self) -> numpy.ndarray:
        if self._order is None:
            rng = numpy.random.default_rng([self.seed, self.epoch])
            self._order = rng.permutation(self.n_pieces)
        first = self.block * self.pieces_per_block
        pieces = self._order[first : first + self.pieces_per_block]
        size = self.piece_tokens
        n_words = len(self.corpus.words)
        positions = numpy.concatenate(
            [numpy.arange(p * size, min((p + 1) * size, n_words)) for p in pieces.tolist()]
        )
        rng = numpy.random.default_rng([self.seed, self.epoch, int(pieces[0])])
        positions = positions[rng.permutation(len(positions))]
        return positions[numpy.asarray(self.corpus.words[positions]) != PADDING]

    def next_batch(self) -> numpy.ndarray:
        """Centre positions of the next batch (at most `batch_size`; never empty)."""
        while True:
            if self._positions is None:
                self._positions = self._block_positions()
            batch = self._positions[self.offset : self.offset + self.batch_size]
            if len(batch):
                self.offset += len(batch)
                self.consumed_in_epoch += len(batch)
                return batch
            self._positions = None
            self.offset = 0
            self.block += 1
            if self.block >= self.n_blocks:
                self.block = 0
                self.epoch += 1
                self.consumed_in_epoch = 0
                self._order = None


def encode_corpus(paths: Sequence[Path], directory: Path, settings: CorpusSettings) -> None:
    """Encode `paths` into `directory` (written to a temporary sibling, then renamed)."""
    with atomic_output(directory, directory=True) as tmp:
        _encode_into(paths, tmp, settings)


def _encode_into(paths: Sequence[Path], tmp: Path, settings: CorpusSettings) -> None:
    paths = [Path(p) for p in paths]
    prints = fingerprint(paths)
    tmp.mkdir()
    pad = settings.window // 2
    pads = array("i", [PADDING] * pad)
    pad_caps = bytes([PADDING] * pad)
    types: dict[str, int] = {s: i for i, s in enumerate(SPECIALS)}
    max_types = settings.max_types
    tokenize = make_tokenizer(settings.tokenizer)
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
    paths: Sequence[Path], directory: Path, settings: CorpusSettings
) -> EncodedCorpus:
    """The encoded corpus in `directory`, (re-)encoding it unless it matches the inputs.

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
    encode_corpus(paths, directory, settings)
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
