"""What every feature shares: the word forms SENNA reads and the `Feature` interface."""

import re
from collections import Counter
from typing import Iterable, Iterator, List, Optional, Sequence

import numpy
from spacy.tokens import Doc, Token

from ..layers.lexicon import Lexicon

_DIGITS = re.compile(r"[0-9]+")

CAPS_VALUES = ("nocaps", "allcaps", "initcap", "hascap")

_PTB_BRACKETS = {"-LRB-": "(", "-RRB-": ")", "-LSB-": "[", "-RSB-": "]", "-LCB-": "{", "-RCB-": "}"}
#: Penn Treebank's escaped brackets (either case) and quotes, and the characters they stand for
PTB_ESCAPES = {
    **_PTB_BRACKETS,
    **{escape.lower(): char for escape, char in _PTB_BRACKETS.items()},
    "``": '"',
    "''": '"',
}


def word_form(text: str) -> str:
    """The form every feature reads of a token text: a PTB escape ("-LRB-", "``", as in
    text tokenized the Penn Treebank way) as the character it stands for, so it gets the
    features of "(" or '"' (raw text's forms); any other text as it is."""
    return PTB_ESCAPES.get(text, text)


def normalize_word(text: str) -> str:
    """Lowercase and replace every run of digits with a single "0" ("PS12" -> "ps0").

    The LM vocabulary, the exported vectors and every component use this one function,
    so a word looked up at run time is keyed exactly as it was when pretrained.
    """
    return _DIGITS.sub("0", text.lower())


def caps_value(text: str) -> str:
    """SENNA's 4-valued capitalisation feature (allcaps > initcap > hascap > nocaps)."""
    has_upper = any(c.isupper() for c in text)
    if has_upper and not any(c.islower() for c in text):
        return "allcaps"
    if text[:1].isupper():
        return "initcap"
    if has_upper:
        return "hascap"
    return "nocaps"


class Feature:
    """One discrete input feature with its own lookup table(s).

    A context-free feature depends on the token text only (`text_strings`), so the
    featurizer caches its ids per orth; a contextual one (`context_free = False`)
    defines `extract(doc, train)` -> (len(doc), n_columns) int64 ids. Dictionaries live
    in `lexicons` (one per column) and are serialized with the model.
    """

    context_free = True
    #: False: the rows `initial_table` gives (e.g. pretrained vectors) are not trained
    fine_tune_initial = True
    #: width of each column's embedding
    widths: List[int]

    def __init__(self, widths: List[int]):
        self.widths = list(widths)
        self.lexicons: List[Lexicon] = [Lexicon() for _ in widths]

    @property
    def n_columns(self) -> int:
        return len(self.widths)

    @property
    def table_sizes(self) -> List[int]:
        return [len(lex) for lex in self.lexicons]

    def text_strings(self, text: str) -> Sequence[str]:
        """The feature's string value(s) for a token text, one per column."""
        raise NotImplementedError

    def token_strings(self, token: Token) -> Sequence[str]:
        return self.text_strings(word_form(token.text))

    def text_ids(self, text: str) -> List[int]:
        return [lex.get(v) for lex, v in zip(self.lexicons, self.text_strings(text))]

    def fit(self, docs: Iterable[Doc], vocab=None) -> None:
        """Build the dictionaries from training docs (and optionally `vocab.vectors`)."""
        counts = [Counter() for _ in self.widths]
        for doc in docs:
            for token in word_tokens(doc):
                for col, value in enumerate(self.token_strings(token)):
                    counts[col][value] += 1
        for col, counter in enumerate(counts):
            self.lexicons[col] = Lexicon.from_counts(counter)

    def initial_table(self, column: int) -> Optional[numpy.ndarray]:
        """Rows to initialise a column's lookup table with, or None for random init."""
        return None

    def to_dict(self) -> dict:
        return {"lexicons": [lex.to_list() for lex in self.lexicons]}

    def from_dict(self, data: dict) -> None:
        self.lexicons = [Lexicon.from_list(items) for items in data["lexicons"]]


def word_tokens(doc: Doc) -> Iterator[Token]:
    """The doc's tokens without whitespace ones, which the networks never see as words."""
    return (token for token in doc if not token.is_space)
