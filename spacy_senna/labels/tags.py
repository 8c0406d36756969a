"""Tag schemes (paper §2, Table 3): conlleval's chunk reading, IOB1/IOB2/BILUO conversions
and the transitions each scheme allows.

A chunk is a `(type, start, end)` tuple over token indices, `end` exclusive.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from functools import lru_cache

import numpy

from ..runtime.compiled import njit

Chunk = tuple[str, int, int]
OUTSIDE = "O"

_Rule = Callable[[str, str, str, str], bool]


def _pairs(spec: str) -> frozenset[tuple[str, str]]:
    return frozenset((pair[0], pair[1]) for pair in spec.split())


# (previous prefix, current prefix) pairs of conlleval.pl (version 2004-01-26)
_CONLLEVAL_END = _pairs("BB BO IB IO EE EI EO")
_CONLLEVAL_START = _pairs("BB IB OB OI EE EI OE")
# the same logic with single-token chunks (S), as in the IOBES-aware conlleval variants
_IOBES_END = _pairs("BB BO BS IB IS IO EE EI EO ES EB SE SI SO SS SB")
_IOBES_START = _pairs("BB IB OB SB EB BS IS OS SS ES OI SI EI SE EE OE")
_BILUO_LETTERS = {"L": "E", "U": "S"}


def split_tag(tag: str) -> tuple[str, str]:
    """Split a tag at its first hyphen into (prefix, type), exactly as conlleval.pl does.

    `B-NP` -> ("B", "NP"), `O` -> ("O", ""), `NN` -> ("NN", ""), `-X-` -> ("", "X-").
    A type of "0" reads as "" (Perl treats the string "0" as false).
    """
    prefix, sep, type_ = tag.partition("-")
    if not sep:
        return tag, ""
    return prefix, ("" if type_ == "0" else type_)


def conlleval_end_of_chunk(prev_tag: str, tag: str, prev_type: str, type_: str) -> bool:
    """conlleval.pl's `endOfChunk`: did a chunk end between the previous and this token?"""
    return (
        (prev_tag, tag) in _CONLLEVAL_END
        or (prev_tag != "O" and prev_tag != "." and prev_type != type_)
        or prev_tag in ("[", "]")
    )


def conlleval_start_of_chunk(prev_tag: str, tag: str, prev_type: str, type_: str) -> bool:
    """conlleval.pl's `startOfChunk`: did a chunk start at this token?"""
    return (
        (prev_tag, tag) in _CONLLEVAL_START
        or (tag != "O" and tag != "." and prev_type != type_)
        or tag in ("[", "]")
    )


def _iobes_end(prev_tag: str, tag: str, prev_type: str, type_: str) -> bool:
    return (prev_tag, tag) in _IOBES_END or (prev_tag != "O" and prev_type != type_)


def _iobes_start(prev_tag: str, tag: str, prev_type: str, type_: str) -> bool:
    return (prev_tag, tag) in _IOBES_START or (tag != "O" and prev_type != type_)


def _read_chunks(parts: Sequence[tuple[str, str]], start: _Rule, end: _Rule) -> list[Chunk]:
    """Chunks from (prefix, type) pairs: one opens at a start event and closes at the next
    end event, the next start event or the end of the sequence, whichever comes first."""
    chunks: list[Chunk] = []
    prev_tag, prev_type = OUTSIDE, ""
    open_type, open_start = "", -1
    for i, (tag, type_) in enumerate(parts):
        ends = end(prev_tag, tag, prev_type, type_)
        starts = start(prev_tag, tag, prev_type, type_)
        if open_start >= 0 and (ends or starts):
            chunks.append((open_type, open_start, i))
            open_start = -1
        if starts:
            open_type, open_start = type_, i
        prev_tag, prev_type = tag, type_
    if open_start >= 0:
        chunks.append((open_type, open_start, len(parts)))
    return chunks


def conlleval_chunks(tags: Sequence[str]) -> list[Chunk]:
    """Read a tag column exactly as the official conlleval.pl (2004-01-26) does.

    Handles IOB1, IOB2, IOE1, IOE2 and the bracket tags `[`/`]`; invalid sequences such as
    `I-X` after `O` or after `I-Y` start a chunk. conlleval.pl knows no `S-`/`U-`/`L-`
    prefix (it reads `B-X E-X S-X` as one chunk): use `biluo_to_chunks` for IOBES/BILUO.
    Sentence boundary tokens (`-X-`) are the caller's business: split the sequence there.
    """
    return _read_chunks(
        [split_tag(tag) for tag in tags], conlleval_start_of_chunk, conlleval_end_of_chunk
    )


iob1_to_chunks = conlleval_chunks
iob2_to_chunks = conlleval_chunks


def biluo_to_chunks(tags: Sequence[str]) -> list[Chunk]:
    """Read a BILUO (B/I/L/U) or IOBES (B/I/E/S) tag column.

    Uses conlleval's logic extended with single-token chunks, so invalid sequences read
    leniently: `I-X`/`L-X` after `O` start a chunk, a type change starts a new chunk, and
    `B-X` followed by `O` is a one-token chunk. Tags without a B/I/L/U/E/S prefix and a
    type read as `O`.
    """
    return _read_chunks([_biluo_part(tag) for tag in tags], _iobes_start, _iobes_end)


_IOBES_CODES = {prefix: code for code, prefix in enumerate("OBIES")}


def _code_table(pairs: frozenset[tuple[str, str]]) -> numpy.ndarray:
    table = numpy.zeros((5, 5), dtype=bool)
    for prev, cur in pairs:
        table[_IOBES_CODES[prev], _IOBES_CODES[cur]] = True
    return table


_IOBES_START_TABLE = _code_table(_IOBES_START)
_IOBES_END_TABLE = _code_table(_IOBES_END)


def biluo_paths_to_chunks(
    paths: numpy.ndarray, lengths: Sequence[int], tags: Sequence[str]
) -> list[list[Chunk]]:
    """`biluo_to_chunks` of many rows of tag ids at once: row r reads `paths[r, :lengths[r]]`
    as indices into `tags` (-1 reads as `O`), with the same lenient rules."""
    types, prefix_of, type_of = _tag_codes(tuple(tags))
    rows = len(lengths)
    found = numpy.empty((max(rows * paths.shape[1], 1), 4), dtype="int64")
    n = _chunk_bounds(
        numpy.ascontiguousarray(paths[:rows], dtype="int64"),
        numpy.asarray(lengths, dtype="int64"),
        prefix_of,
        type_of,
        _IOBES_START_TABLE,
        _IOBES_END_TABLE,
        found,
    )
    if n < 0:
        raise ValueError(f"A path holds a tag id outside the {len(tags)} tags {tags[:5]}...")
    chunks: list[list[Chunk]] = [[] for _ in range(rows)]
    # one list per column, not one per chunk: no short-lived container per chunk for the
    # garbage collector to count
    for row, type_, start, end in zip(*found[:n].T.tolist()):
        chunks[row].append((types[type_ - 1], start, end))
    return chunks


@njit(cache=True, nogil=True)
def _chunk_bounds(paths, lengths, prefix_of, type_of, start_table, end_table, found):
    """Fill `found` with (row, type id, start, end) of each chunk of the rows, in order, and
    return how many: a chunk starts where the IOBES start rules say (or the type changes
    on a tag with a prefix) and runs to the next start or end event; an O before and after
    each row closes what is open (tag id -1 reads as O: the codes' last entry). -1 when a
    tag id is past the inventory."""
    last = len(prefix_of) - 1
    n = 0
    for row in range(len(lengths)):
        length = min(lengths[row], paths.shape[1])
        open_at = -1
        open_type = 0
        previous_prefix, previous_type = prefix_of[last], type_of[last]
        for k in range(length + 1):
            tag = last
            if k < length and paths[row, k] >= 0:
                tag = paths[row, k]
                if tag >= last:
                    return -1
            prefix, type_ = prefix_of[tag], type_of[tag]
            retyped = type_ != previous_type
            starts = start_table[previous_prefix, prefix] or (prefix != 0 and retyped)
            ends = end_table[previous_prefix, prefix] or (previous_prefix != 0 and retyped)
            if (starts or ends) and open_at >= 0:
                found[n, 0], found[n, 1], found[n, 2], found[n, 3] = row, open_type, open_at, k
                n += 1
                open_at = -1
            if starts:
                open_at, open_type = k, type_
            previous_prefix, previous_type = prefix, type_
    return n


@lru_cache(maxsize=64)
def _tag_codes(tags: tuple[str, ...]) -> tuple[list[str], numpy.ndarray, numpy.ndarray]:
    """The chunk types of a tag inventory, and per tag id, with a last entry for -1: its
    IOBES prefix code and type id (0: none); kept per inventory (a component decodes with
    one inventory call after call)."""
    parts = [_biluo_part(tag) for tag in tags]
    types = sorted({type_ for _, type_ in parts} - {""})
    type_ids = {type_: i + 1 for i, type_ in enumerate(types)}
    prefix_of = numpy.array([_IOBES_CODES[prefix] for prefix, _ in parts] + [0])
    type_of = numpy.array([type_ids.get(type_, 0) for _, type_ in parts] + [0])
    prefix_of.setflags(write=False)
    type_of.setflags(write=False)
    return types, prefix_of, type_of


def _biluo_part(tag: str) -> tuple[str, str]:
    """(IOBES prefix, type) of a BILUO or IOBES tag; O for anything else."""
    prefix, _, type_ = tag.partition("-")  # no Perl quirk here: a type "0" is a type
    prefix = _BILUO_LETTERS.get(prefix, prefix)
    return (prefix, type_) if type_ and prefix in ("B", "I", "E", "S") else (OUTSIDE, "")


def _check_chunks(chunks: Iterable[Chunk], n_tokens: int) -> list[Chunk]:
    ordered = sorted(chunks, key=lambda chunk: (chunk[1], chunk[2]))
    last_end = 0
    for type_, start, end in ordered:
        if not type_:
            raise ValueError(f"Chunk {(type_, start, end)} has an empty type")
        if start < last_end or start >= end or end > n_tokens:
            raise ValueError(
                f"Chunk {(type_, start, end)} overlaps another or is outside 0..{n_tokens}"
            )
        last_end = end
    return ordered


def chunks_to_biluo(chunks: Iterable[Chunk], n_tokens: int) -> list[str]:
    """BILUO tags (`B-X`, `I-X`, `L-X`, `U-X`, `O`) for non-overlapping chunks."""
    tags = [OUTSIDE] * n_tokens
    for type_, start, end in _check_chunks(chunks, n_tokens):
        if end - start == 1:
            tags[start] = f"U-{type_}"
            continue
        tags[start] = f"B-{type_}"
        tags[start + 1 : end - 1] = [f"I-{type_}"] * (end - start - 2)
        tags[end - 1] = f"L-{type_}"
    return tags


def chunks_to_iob2(chunks: Iterable[Chunk], n_tokens: int) -> list[str]:
    """IOB2 tags (`B-X` starts every chunk) for non-overlapping chunks."""
    tags = [OUTSIDE] * n_tokens
    for type_, start, end in _check_chunks(chunks, n_tokens):
        tags[start] = f"B-{type_}"
        tags[start + 1 : end] = [f"I-{type_}"] * (end - start - 1)
    return tags


def biluo_labels(types: Iterable[str]) -> list[str]:
    """The BILUO tag inventory: "O", then B-, I-, L-, U- for each type in sorted order."""
    return list(_biluo_inventory(tuple(types)))


@lru_cache(maxsize=64)
def _biluo_inventory(types: tuple[str, ...]) -> tuple[str, ...]:
    """`biluo_labels` kept per tuple of types (a span labeler reads its inventory at every
    call: SRL's 181 tags took 20 us to spell out)."""
    return (OUTSIDE, *(f"{prefix}-{type_}" for type_ in sorted(set(types)) for prefix in "BILU"))


_SCHEME_PREFIXES: dict[str, str] = {
    "BILUO": "BILUES",
    "IOBES": "BILUES",
    "IOB2": "BI",
    "IOB1": "BI",
}


def _scheme_parts(tag_names: Sequence[str], scheme: str) -> tuple[list[str], list[str]]:
    if scheme not in _SCHEME_PREFIXES:
        raise ValueError(
            f"Unknown tag scheme {scheme!r}; expected one of {sorted(_SCHEME_PREFIXES)}"
        )
    allowed = _SCHEME_PREFIXES[scheme]
    prefixes, types = [], []
    for tag in tag_names:
        if len(tag) > 2 and tag[1] == "-" and tag[0].isalpha():
            prefix, type_ = tag[0], tag[2:]
            if prefix not in allowed:
                raise ValueError(f"Tag {tag!r} has a prefix that the {scheme} scheme does not use")
            prefixes.append(_BILUO_LETTERS.get(prefix, prefix))
            types.append(type_)
        else:
            prefixes.append(OUTSIDE)
            types.append("")
    return prefixes, types


def allowed_transitions(
    tag_names: Sequence[str], scheme: str
) -> tuple[numpy.ndarray, numpy.ndarray, numpy.ndarray]:
    """Which tag may follow which under `scheme` ("BILUO"/"IOBES", "IOB2" or "IOB1").

    Returns `(trans, start, end)`: `trans[i, j]` is True when tag j may follow tag i,
    `start[i]`/`end[i]` when tag i may begin/end a sentence. `O` and tags without a
    prefix behave alike and never constrain each other. BILUO accepts the letters
    B/I/L/U and B/I/E/S; in IOB1 `B-X` may only follow `B-X` or `I-X`.
    """
    prefixes, types = _scheme_parts(tag_names, scheme)
    prefix = numpy.array(prefixes, dtype=object)
    type_arr = numpy.array(types, dtype=object)
    same_type = type_arr[:, None] == type_arr[None, :]
    n = len(tag_names)
    if scheme in ("BILUO", "IOBES"):
        inside_prev = numpy.isin(prefix, ["B", "I"])  # must be continued by I/L of its type
        continues = numpy.isin(prefix, ["I", "E"])  # may only follow B/I of its type
        trans = numpy.where(
            inside_prev[:, None], continues[None, :] & same_type, ~continues[None, :]
        )
        start = ~continues
        end = ~inside_prev
    elif scheme == "IOB2":
        continues = prefix == "I"
        prev_in_chunk = numpy.isin(prefix, ["B", "I"])
        trans = ~continues[None, :] | (prev_in_chunk[:, None] & same_type)
        start = ~continues
        end = numpy.ones(n, dtype=bool)
    else:
        begins = prefix == "B"
        prev_in_chunk = numpy.isin(prefix, ["B", "I"])
        trans = ~begins[None, :] | (prev_in_chunk[:, None] & same_type)
        start = ~begins
        end = numpy.ones(n, dtype=bool)
    return trans.astype(bool), start.astype(bool), end.astype(bool)


class BiluoTagSet:
    """For a labeler of spans (mixed in before its base class): its CRF tags are the
    BILUO expansion of its `labels`, with BILUO's transitions, starts and ends."""

    labels: Sequence[str]

    @property
    def tag_names(self) -> list[str]:
        """The BILUO expansion of the labels."""
        return biluo_labels(self.labels)

    def tag_constraints(self) -> tuple:
        """BILUO's allowed transitions, starts and ends."""
        return allowed_transitions(self.tag_names, "BILUO")
