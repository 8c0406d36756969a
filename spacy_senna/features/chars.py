"""The character feature (not in SENNA): a word's character ids for a character CNN."""

from collections import Counter
from typing import Iterable, List

from spacy.tokens import Doc

from ..layers.char_cnn import CharCNNSpec
from ..layers.lexicon import PADDING, Lexicon
from .base import Feature, word_form, word_tokens

#: the character feature's begin- and end-of-word marks (longer than any one character)
WORD_MARKS = ("<w>", "</w>")


class CharFeature(Feature):
    """A word's characters, case kept, for a character CNN (Ma & Hovy 2016): not SENNA.

    A word becomes `max_chars + 2` ids: a begin-of-word mark, its characters, an
    end-of-word mark, then PADDING. A longer word keeps its first and last characters
    (10 + 10 with max_chars = 20), so that suffixes survive. Characters seen fewer than
    `min_freq` times in the training data are UNKNOWN. The ids depend on the text only,
    so the featurizer caches them per orth like those of every other context-free feature.
    """

    def __init__(self, char_width: int, width: int, window: int, max_chars: int, min_freq: int):
        if max_chars < 1:
            raise ValueError(f"The character feature needs max_chars >= 1, got {max_chars}")
        if window < 1 or window % 2 == 0:
            raise ValueError(f"The character feature's window must be odd, got {window}")
        if char_width < 1 or width < 1:
            raise ValueError(
                f"The character feature needs char_width and width >= 1, got "
                f"{char_width} and {width}"
            )
        super().__init__([])  # no lookup table per column: a character CNN over them all
        self.char_width = char_width
        self.width = width
        self.window = window
        self.max_chars = max_chars
        self.min_freq = min_freq
        self.lexicons = [Lexicon.from_words(WORD_MARKS)]

    @property
    def n_columns(self) -> int:
        return self.max_chars + len(WORD_MARKS)

    @property
    def table_sizes(self) -> List[int]:
        return []

    def chars(self, text: str) -> str:
        """The characters kept: all, or the first and last ones of a long word."""
        if len(text) <= self.max_chars:
            return text
        tail = self.max_chars // 2
        return text[: self.max_chars - tail] + (text[-tail:] if tail else "")

    def text_ids(self, text: str) -> List[int]:
        lex = self.lexicons[0]
        chars = self.chars(text)
        ids = [lex.get(WORD_MARKS[0]), *(lex.get(c) for c in chars), lex.get(WORD_MARKS[1])]
        return ids + [PADDING] * (self.max_chars - len(chars))

    def fit(self, docs: Iterable[Doc], vocab=None) -> None:
        counter: Counter = Counter()
        for doc in docs:
            for token in word_tokens(doc):
                counter.update(self.chars(word_form(token.text)))
        frequent = Lexicon.from_counts(counter, self.min_freq).to_list()
        self.lexicons = [Lexicon.from_words([*WORD_MARKS, *frequent])]

    def cnn_spec(self) -> CharCNNSpec:
        """The character CNN this feature's columns go through."""
        return CharCNNSpec(
            n_columns=self.n_columns,
            n_chars=len(self.lexicons[0]),
            char_width=self.char_width,
            width=self.width,
            window=self.window,
        )
