"""An AttributeRuler's patterns compiled to array operations over a batch of tokens.

A token test reads one attribute the way spaCy's Matcher reads it (`Doc.to_array` gives the
same values) and compares it for equality, IN, NOT_IN or REGEX. Each column that tests read
splits its values into classes (each value a test names, and "any other"), so the tests a
token passes, and what the rules of one token give it, are worked out once per distinct
set of column values (cached; REGEX tests are run then). A pattern of several tokens (with
the Matcher's quantifiers) extends, a token at a time, the matches that start at the tokens
passing its first test. A rule is compiled only when its patterns and the attributes it sets
(POS, TAG, MORPH, LEMMA) allow; the caller runs the others with a Matcher. Where several
rules set an attribute of a token, the one added last wins, as in spaCy's AttributeRuler.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Iterator, Optional

import numpy as np
from spacy.attrs import IDS, LEMMA, MORPH, POS, TAG
from spacy.strings import StringStore

from ..runtime.distinct import distinct
from ..runtime.growing import appended

#: upper bound of an unbounded quantifier
INF = 1 << 30
_COLUMN_NAMES = (
    "ORTH LOWER NORM SHAPE PREFIX SUFFIX LENGTH TAG POS LEMMA IS_ALPHA IS_ASCII IS_DIGIT "
    "IS_LOWER IS_PUNCT IS_SPACE IS_TITLE IS_UPPER IS_STOP IS_BRACKET IS_QUOTE IS_LEFT_PUNCT "
    "IS_RIGHT_PUNCT IS_CURRENCY LIKE_URL LIKE_NUM LIKE_EMAIL"
).split()
#: attributes a test may read: what `Doc.to_array` returns is what the Matcher compares
COLUMN_ATTRS = frozenset(IDS[name] for name in _COLUMN_NAMES)
#: attributes holding string ids, which REGEX tests may read
STRING_ATTRS = frozenset(IDS[n] for n in "ORTH LOWER NORM SHAPE PREFIX SUFFIX TAG LEMMA".split())
#: attributes compiled rules may set: token-level, written with `Doc.from_array`
WRITABLE = frozenset({POS, TAG, MORPH, LEMMA})
#: raw column values cached before the cache starts again
MAX_CACHED = 500_000
#: states of a pattern match kept before equal ones are merged
DEDUPLICATE = 256
_OPS = {"1": (1, 1), "?": (0, 1), "*": (0, INF), "+": (1, INF)}

Test = tuple  # (attr, "eq" | "in" | "not_in" | "regex", value)
Element = tuple  # (spec index, min count, max count)


def _quantifier(op: Any) -> Optional[tuple[int, int]]:
    """A Matcher "OP" as (min, max) repetitions; None for "!" and anything else."""
    if not isinstance(op, str):
        return None
    if op in _OPS:
        return _OPS[op]
    if not (op.startswith("{") and op.endswith("}")):
        return None
    inner = op[1:-1] if "," in op else f"{op[1:-1]},{op[1:-1]}"
    low, high = inner.split(",", 1)
    if not (low.isdecimal() or low == "") or not (high.isdecimal() or high == ""):
        return None
    bounds = (int(low or 0), int(high) if high else INF)
    return bounds if bounds[1] > 0 and bounds[0] <= bounds[1] else None


def _set_values(values: Any) -> Optional[frozenset]:
    if not isinstance(values, (list, tuple)) or not values:
        return None
    if not all(isinstance(v, (str, int)) and not isinstance(v, bool) for v in values):
        return None
    return frozenset(StringStore().add(v) if isinstance(v, str) else v for v in values)


def parse_element(element: dict) -> Optional[tuple[tuple[Test, ...], int, int]]:
    """One Matcher token pattern as (tests, min, max), or None where it cannot be compiled."""
    tests: list[Test] = []
    low = high = 1
    for key, value in element.items():
        name = key.upper() if isinstance(key, str) else key
        if name == "OP":
            bounds = _quantifier(value)
            if bounds is None:
                return None
            low, high = bounds
            continue
        attr = IDS.get("ORTH" if name == "TEXT" else name) if isinstance(name, str) else name
        if attr not in COLUMN_ATTRS:
            return None
        if isinstance(value, bool):
            tests.append((attr, "eq", int(value)))
        elif isinstance(value, int):
            tests.append((attr, "eq", value))
        elif isinstance(value, str):
            tests.append((attr, "eq", StringStore().add(value)))
        elif isinstance(value, dict) and value:
            for key_, argument in value.items():
                predicate = key_.upper() if isinstance(key_, str) else key_
                if predicate in ("IN", "NOT_IN") and _set_values(argument) is not None:
                    tests.append((attr, predicate.lower(), _set_values(argument)))
                elif predicate == "REGEX" and isinstance(argument, str) and attr in STRING_ATTRS:
                    tests.append((attr, "regex", argument))
                else:
                    return None
        else:
            return None
    return tuple(sorted(tests, key=repr)), low, high


def _bits(mask: int) -> Iterator[int]:
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


@dataclass
class Sequence:
    """A pattern of several tokens: its elements, read backwards when the target counts
    from the end, and the target's offset from the first element read."""

    rule: int
    elements: list[Element]
    offset: int
    backwards: bool


@dataclass
class AttributeTables:
    """The compiled rules; `resolve` gives, per token, the winning rule and value of each
    attribute in `writes` (rule -1: no compiled rule sets it)."""

    writes: list[int]
    rule_writes: dict[int, list[tuple[int, int]]]
    specs: list[tuple[Test, ...]] = field(default_factory=list)
    single: dict[int, list[int]] = field(default_factory=dict)
    sequences: list[Sequence] = field(default_factory=list)
    columns: list[int] = field(default_factory=list)

    def __post_init__(self) -> None:
        self._spec_ids: dict[tuple, int] = {}

    def spec(self, tests: tuple[Test, ...]) -> int:
        """The index of a token test conjunction (shared by equal ones)."""
        if tests not in self._spec_ids:
            self._spec_ids[tests] = len(self.specs)
            self.specs.append(tests)
        return self._spec_ids[tests]

    def finish(self) -> None:
        """Build the per-column class tables once every rule is in."""
        self.columns = sorted({t[0] for tests in self.specs for t in tests})
        self.array_specs = sorted({e[0] for seq in self.sequences for e in seq.elements})
        self._array_pos = {s: i for i, s in enumerate(self.array_specs)}
        self._anchors = np.array(
            [self._array_pos[seq.elements[0][0]] for seq in self.sequences], dtype=np.int64
        )
        self._regex_specs = [
            (s, [(self.columns.index(t[0]), re.compile(t[2])) for t in tests if t[1] == "regex"])
            for s, tests in enumerate(self.specs)
            if any(t[1] == "regex" for t in tests)
        ]
        self._class_of, self._class_bits = [], []
        everything = (1 << len(self.specs)) - 1
        for attr in self.columns:
            tests = [(s, t) for s, ts in enumerate(self.specs) for t in ts if t[0] == attr]
            named = sorted({v for _, t in tests if t[1] != "regex" for v in _named(t)})
            classes = [*named, None]
            bits = [everything] * len(classes)
            for spec, test in tests:
                for j, value in enumerate(classes):
                    if test[1] != "regex" and not _passes(test, value):
                        bits[j] &= ~(1 << spec)
            self._class_of.append({value: j for j, value in enumerate(named)})
            self._class_bits.append(bits)
        generator = np.random.default_rng(len(self.columns))
        self._mix = generator.integers(1, 1 << 63, len(self.columns), dtype=np.uint64) * 2 + 1
        self._forget_entries()
        self._by_mask: dict[int, int] = {}
        self._rows_win: list[list[int]] = []
        self._rows_val: list[list[int]] = []
        self._rows_hits: list[list[bool]] = []
        self._tables: tuple[np.ndarray, np.ndarray, np.ndarray] = self._stack()

    def _stack(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        shape = (len(self._rows_win), len(self.writes))
        return (
            np.array(self._rows_win, dtype=np.int64).reshape(shape),
            np.array(self._rows_val, dtype=np.uint64).reshape(shape),
            np.array(self._rows_hits, dtype=bool).reshape(shape[0], len(self.array_specs)),
        )

    def _row(self, values: list[int], strings: StringStore) -> int:
        """The table row of a token whose columns hold `values` (added if new)."""
        mask = (1 << len(self.specs)) - 1
        for class_of, bits, value in zip(self._class_of, self._class_bits, values):
            mask &= bits[class_of.get(value, len(class_of))]
        for spec, tests in self._regex_specs:
            if mask >> spec & 1 and not all(p.search(strings[values[c]]) for c, p in tests):
                mask &= ~(1 << spec)
        if mask not in self._by_mask:
            win, val = [-1] * len(self.writes), [0] * len(self.writes)
            for spec in _bits(mask):
                for rule in self.single.get(spec, ()):
                    for column, value in self.rule_writes[rule]:
                        if rule > win[column]:
                            win[column], val[column] = rule, value
            self._by_mask[mask] = len(self._rows_win)
            self._rows_win.append(win)
            self._rows_val.append(val)
            self._rows_hits.append([bool(mask >> s & 1) for s in self.array_specs])
        return self._by_mask[mask]

    def _forget_entries(self) -> None:
        """Forget the cached rows: `_by_hash` maps a hash to its entry, and the first
        entries of `_entries`' buffers (doubled when full) hold their values and rows."""
        self._by_hash: dict[int, int] = {}
        self._entries = (np.zeros((0, len(self.columns)), np.uint64), np.zeros(0, np.int64))

    def _rows(self, data: np.ndarray, strings: StringStore) -> np.ndarray:
        """The table row of each token, cached by the values of its columns: a hash finds
        the entry, a comparison with the entry's values confirms it."""
        if not self.columns:
            return np.full(len(data), self._row([], strings), dtype=np.int64)
        if len(self._by_hash) > MAX_CACHED:
            self._forget_entries()
        hashes = (data * self._mix).sum(axis=1, dtype=np.uint64)
        get = self._by_hash.get
        found = np.array([get(h, -1) for h in hashes.tolist()], dtype=np.int64)
        keys, entry_rows = self._entries
        known = found >= 0
        known[known] = (keys[found[known]] == data[known]).all(axis=1)
        rows = np.zeros(len(data), dtype=np.int64)
        rows[known] = entry_rows[found[known]]
        if not known.all():
            self._add(data, hashes, np.flatnonzero(~known), rows, strings)
        return rows

    def _add(
        self,
        data: np.ndarray,
        hashes: np.ndarray,
        misses: np.ndarray,
        rows: np.ndarray,
        strings: StringStore,
    ) -> None:
        """Fill the `rows` of the tokens at `misses`, resolving each distinct set of
        values once; each new hash becomes an entry."""
        keys, entry_rows = self._entries
        values, first, inverse = distinct(data[misses])
        resolved = np.array([self._row(v, strings) for v in values.tolist()], dtype=np.int64)
        rows[misses] = resolved[inverse]
        new = []
        for i in misses[first].tolist():
            h = int(hashes[i])
            if h not in self._by_hash:
                self._by_hash[h] = len(self._by_hash)
                new.append(i)
        if new:  # the buffers grow by doubling: no copy of them per text
            used = len(self._by_hash) - len(new)
            self._entries = (appended(keys, used, data[new]), appended(entry_rows, used, rows[new]))

    def resolve(
        self, data: np.ndarray, lengths: list[int], strings: StringStore
    ) -> tuple[np.ndarray, np.ndarray]:
        """(rule, value) per token and written attribute, for tokens whose `self.columns`
        are the rows of `data`, docs of `lengths` laid end to end."""
        rows = self._rows(data, strings)
        if len(self._tables[0]) < len(self._rows_win):
            self._tables = self._stack()
        table_win, table_val, table_hits = self._tables
        win, val = table_win[rows], table_val[rows]
        if not self.sequences:
            return win, val
        hits = np.zeros((len(rows) + 1, len(self.array_specs)), dtype=bool)
        hits[:-1] = table_hits[rows]
        live = np.flatnonzero(hits.any(axis=0)[self._anchors]).tolist()
        if not live:
            return win, val
        ends = np.cumsum(lengths)
        bounds = {1: ends, -1: ends - lengths}
        for seq in (self.sequences[i] for i in live):
            first = np.flatnonzero(hits[:-1, self._array_pos[seq.elements[0][0]]])
            step = -1 if seq.backwards else 1
            bound = bounds[step][np.searchsorted(ends, first, side="right")]
            states = (first, first, bound)
            for spec, low, high in seq.elements:
                states = _advance(states, hits[:, self._array_pos[spec]], low, high, step)
            tokens = states[0] + step * seq.offset
            for column, value in self.rule_writes[seq.rule]:
                chosen = tokens[win[tokens, column] < seq.rule]
                win[chosen, column], val[chosen, column] = seq.rule, value
        return win, val


def _named(test: Test) -> list[int]:
    return [test[2]] if test[1] == "eq" else list(test[2])


def _passes(test: Test, value: Optional[int]) -> bool:
    kind, argument = test[1], test[2]
    if kind == "eq":
        return value == argument
    if kind == "in":
        return value in argument
    return value not in argument


def _advance(states: tuple, mask: np.ndarray, low: int, high: int, step: int) -> tuple:
    """Match one element from each state (first token, next position, bound of its doc):
    the states after `low` to `high` tokens of `mask` (which is False at index -1 and at the
    end), one token at a time forwards (step 1) or backwards (step -1)."""
    kept = []
    first, position, bound = states
    for count in range(high + 1):
        if count >= low:
            kept.append((first, position, bound))
        if count == high or not len(first):
            break
        inside = position < bound if step > 0 else position >= bound
        ok = inside & mask[position]
        first, position, bound = first[ok], position[ok] + step, bound[ok]
    if len(kept) <= 1:
        return kept[0] if kept else (first, position, bound)
    first, position, bound = (np.concatenate(parts) for parts in zip(*kept))
    if len(first) <= DEDUPLICATE:
        return first, position, bound
    key = first * (len(mask) + 1) + position + 1
    _, unique = np.unique(key, return_index=True)
    return first[unique], position[unique], bound[unique]


def compile_rules(
    rules: list[tuple[list[list[dict]], dict, int]],
) -> tuple[AttributeTables, list[int]]:
    """Compile the rules (patterns, attributes as normalized ids, target index; in order) that
    allow it; also returns the indices of the others, for a Matcher."""
    writes = sorted({attr for _, attrs, _ in rules for attr in attrs if attr in WRITABLE})
    tables = AttributeTables(writes=writes, rule_writes={})
    fallback = []
    for rule, (patterns, attrs, index) in enumerate(rules):
        plans = _plans(patterns, index) if set(attrs) <= WRITABLE else None
        if plans is None:
            fallback.append(rule)
            continue
        tables.rule_writes[rule] = [(writes.index(a), int(v)) for a, v in attrs.items()]
        for elements, offset, backwards in plans:
            if len(elements) == 1:
                tables.single.setdefault(tables.spec(elements[0][0]), []).append(rule)
            else:
                compiled = [(tables.spec(t), low, high) for t, low, high in elements]
                tables.sequences.append(Sequence(rule, compiled, offset, backwards))
    tables.finish()
    return tables, fallback


def _plans(patterns: list[list[dict]], index: int) -> Optional[list]:
    """Each pattern's parsed elements in reading order (backwards for a negative index) and
    the target's offset, where the elements up to the target have no quantifier."""
    plans = []
    for pattern in patterns:
        elements = [parse_element(e) if isinstance(e, dict) else None for e in pattern]
        if not elements or None in elements:
            return None
        backwards = index < 0
        offset = -index - 1 if backwards else index
        ordered = elements[::-1] if backwards else elements
        if offset >= len(ordered) or any(e[1:] != (1, 1) for e in ordered[: offset + 1]):
            return None
        plans.append((ordered, offset, backwards))
    return plans
