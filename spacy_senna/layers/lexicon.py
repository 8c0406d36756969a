"""A string -> row dictionary for one lookup table, with PADDING and UNKNOWN rows."""

from typing import Counter, Dict, Iterable, List

PADDING = 0
UNKNOWN = 1
SPECIALS = ("<PADDING>", "<UNKNOWN>")


class Lexicon:
    """Maps strings to lookup-table rows: 0 = PADDING, 1 = UNKNOWN, then the entries."""

    def __init__(self) -> None:
        self._index: Dict[str, int] = {s: i for i, s in enumerate(SPECIALS)}
        self._strings: List[str] = list(SPECIALS)

    @classmethod
    def from_words(cls, words: Iterable[str]) -> "Lexicon":
        lex = cls()
        for word in words:
            if word not in lex._index:
                lex._index[word] = len(lex._strings)
                lex._strings.append(word)
        return lex

    @classmethod
    def from_counts(cls, counts: Counter, min_freq: int = 1) -> "Lexicon":
        """Entries sorted by frequency (then alphabetically, for reproducibility)."""
        items = sorted(counts.items(), key=lambda wc: (-wc[1], wc[0]))
        return cls.from_words(w for w, c in items if c >= min_freq)

    def __len__(self) -> int:
        return len(self._strings)

    def __contains__(self, word: str) -> bool:
        return word in self._index

    def get(self, word: str) -> int:
        """The row of `word`, or UNKNOWN."""
        return self._index.get(word, UNKNOWN)

    def __getitem__(self, row: int) -> str:
        return self._strings[row]

    def to_list(self) -> List[str]:
        return list(self._strings[len(SPECIALS) :])

    @classmethod
    def from_list(cls, words: List[str]) -> "Lexicon":
        return cls.from_words(words)
