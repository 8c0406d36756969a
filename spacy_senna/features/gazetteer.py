"""SENNA's gazetteer feature for NER (paper §6.2): one YES/NO flag per entity type.

Entries come from a file of `TYPE word word ...` lines (the CoNLL-2003 `eng.list`
format; `.gz` accepted). A token's flag for TYPE is YES when it lies inside a match of
a TYPE entry (lowercased, word by word): as in SENNA, the longest entry found from each
start token marks all of its tokens.
"""

import warnings
from collections import defaultdict
from pathlib import Path
from typing import Dict, Iterable, List, Optional, Sequence, Set, Tuple

import numpy
from spacy.attrs import LOWER
from spacy.strings import get_string_id
from spacy.tokens import Doc
from spacy.util import registry

from ..io.files import atomic_output
from ..io.text_input import open_text
from ..layers.lexicon import Lexicon
from . import Feature

FLAG_VALUES = ("NO", "YES")


def read_gazetteer(path: Path, types: Sequence[str]) -> Dict[str, Set[str]]:
    """{type: {lowercased space-joined entry}} from a `TYPE word word ...` file."""
    path = Path(path)
    if not path.exists():
        where = "" if path.is_absolute() else f" (relative to the current folder, {Path.cwd()})"
        raise FileNotFoundError(
            f"Gazetteer file not found: {path}{where}. It is read only when the component is "
            "initialised (a trained pipeline keeps its names): set the feature's `path` "
            "(--components.NAME.model.features.gazetteer.path FILE), or build a list from "
            "a corpus with `python -m spacy_senna build-gazetteer CORPUS FILE`"
        )
    entries: Dict[str, Set[str]] = {t: set() for t in types}
    skipped: List[str] = []
    with open_text(path) as file_:
        for lineno, line in enumerate(file_, start=1):
            parts = line.split()
            if not parts:
                continue
            if len(parts) < 2:
                raise ValueError(
                    f"{path}:{lineno}: expected 'TYPE word [word ...]', got {line.strip()!r}"
                )
            if parts[0] not in entries:
                skipped.append(f"{lineno} ({parts[0]})")
                continue
            entries[parts[0]].add(" ".join(parts[1:]).lower())
    if skipped:
        warnings.warn(
            f"{path}: skipped {len(skipped)} line(s) whose entity type is not one of "
            f"{list(types)} (set `types` in the config to use them): line "
            + ", ".join(skipped[:10])
        )
    if not any(entries.values()):
        raise ValueError(f"Gazetteer file {path} contains no entries of types {list(types)}")
    return entries


class GazetteerMatcher:
    """Multi-word entries matched over lowercased tokens.

    A token is flagged for a type when it lies inside a full entry of that type. This is
    SENNA's extend-while-prefix rule: the longest entry found from a start covers every
    shorter one from the same start, so the union of all matches gives the same flags.
    Entries are kept as tuples of string hashes, so that a list of many thousand names
    is ready in a fraction of a second and adds nothing to the pipeline's vocab.
    """

    def __init__(self, entries: Dict[str, Set[str]], types: Sequence[str]):
        self.types = list(types)
        self._phrases: List[Set[Tuple[int, ...]]] = []
        #: {first word's hash: {(type column, entry length)}}
        self._starts: Dict[int, Set[Tuple[int, int]]] = defaultdict(set)
        for col, type_ in enumerate(self.types):
            phrases = {
                tuple(map(get_string_id, entry.split(" "))) for entry in entries.get(type_, ())
            }
            self._phrases.append(phrases)
            for words in phrases:
                self._starts[words[0]].add((col, len(words)))

    def matches(self, doc: Doc) -> List[Tuple[int, int, int]]:
        """(start, end, type column) of the longest match of each type at each start."""
        lower = doc.to_array(LOWER).tolist()
        found = []
        for start, word in enumerate(lower):
            candidates = self._starts.get(word)
            if not candidates:
                continue
            longest: Dict[int, int] = {}
            for col, length in candidates:
                end = start + length
                if end > len(lower) or end <= longest.get(col, start):
                    continue
                if tuple(lower[start:end]) in self._phrases[col]:
                    longest[col] = end
            found.extend((start, end, col) for col, end in sorted(longest.items()))
        return found

    def flags(
        self, doc: Doc, drop: float = 0.0, rng: Optional[numpy.random.Generator] = None
    ) -> numpy.ndarray:
        """(len(doc), n_types) bool: token covered by a match of each type.

        drop: probability of ignoring each match (training noise; needs `rng`).
        """
        out = numpy.zeros((len(doc), len(self.types)), dtype=bool)
        found = self.matches(doc)
        if drop > 0.0 and found:
            keep = rng.random(len(found)) >= drop
            found = [match for match, kept in zip(found, keep) if kept]
        for start, end, col in found:
            out[start:end, col] = True
        return out


class GazetteerFeature(Feature):
    """One lookup table per entity type, values NO/YES (+ PADDING, UNKNOWN).

    With `drop_matches` > 0 each match is ignored with that probability in training
    updates (never at prediction), so that the model does not learn "not in the list =>
    not an entity" from a list that covers the training entities better than new text.
    """

    context_free = False

    def __init__(
        self, path: Optional[str], types: Sequence[str], width: int, drop_matches: float = 0.0
    ):
        if not types:
            raise ValueError("GazetteerFeature needs at least one entity type")
        if not 0.0 <= drop_matches < 1.0:
            raise ValueError(f"drop_matches must be in [0, 1), got {drop_matches}")
        super().__init__([width] * len(types))
        self.drop_matches = drop_matches
        self._rng = numpy.random.default_rng(0)
        self.path = path
        self.types = list(types)
        self.lexicons = [Lexicon.from_words(FLAG_VALUES) for _ in self.types]
        self.entries: Dict[str, Set[str]] = {t: set() for t in self.types}
        self._matcher = GazetteerMatcher(self.entries, self.types)

    def fit(self, docs: Iterable[Doc], vocab=None) -> None:
        if self.path is None:
            raise ValueError(
                "The gazetteer feature has no file: set `path` in its config section "
                "(a `TYPE word word ...` file such as CoNLL-2003's eng.list)."
            )
        self.set_entries(read_gazetteer(Path(self.path), self.types))

    def set_entries(self, entries: Dict[str, Set[str]]) -> None:
        """Use these names; their matcher is built now (when the pipeline is loaded), so
        that the first doc waits for nothing and threads share one finished matcher."""
        self.entries = {t: set(entries.get(t, ())) for t in self.types}
        self._matcher = GazetteerMatcher(self.entries, self.types)

    def extract(self, doc: Doc, train: bool = False) -> numpy.ndarray:
        drop = self.drop_matches if train else 0.0
        flags = self._matcher.flags(doc, drop, self._rng)
        no, yes = self.lexicons[0].get("NO"), self.lexicons[0].get("YES")
        return numpy.where(flags, yes, no).astype("int64")

    def to_dict(self) -> dict:
        return {"entries": {t: sorted(e) for t, e in self.entries.items()}}

    def from_dict(self, data: dict) -> None:
        self.set_entries({t: set(e) for t, e in data["entries"].items()})


@registry.misc("spacy-senna.GazetteerFeature.v1")
def gazetteer_feature(
    path: Optional[str] = None,
    types: List[str] = ["LOC", "MISC", "ORG", "PER"],
    width: int = 5,
    drop_matches: float = 0.0,
) -> Feature:
    """Gazetteer flags (SENNA's NER feature).

    path (Optional[str]): `TYPE word word ...` file read at initialize (entries are then
        saved with the pipeline; the file is not needed to load it).
    types (List[str]): entity types, one YES/NO lookup table each (paper: 4).
    width (int): embedding width of each flag table (unspecified in the paper; 5).
    drop_matches (float): probability of ignoring a match in a training update (0 =
        the paper). Use it when the list holds the training entities, as CoNLL-2003's
        eng.list does (99.96% of eng.train's entities, 68% of testa's).
    """
    return GazetteerFeature(path, types, width, drop_matches)


def write_gazetteer(entries: Dict[str, Set[str]], path: Path) -> int:
    """Write `TYPE words` lines (sorted, atomically); returns the number of entries written."""
    lines = [f"{t} {e}" for t in sorted(entries) for e in sorted(entries[t])]
    with atomic_output(path) as tmp:
        tmp.write_text("\n".join(lines) + "\n", encoding="utf8")
    return len(lines)
