"""Token -> discrete SENNA features (paper §3.5, §6; released-SENNA details in the digest §12).

Every feature maps each token of a Doc to one or more small integers, one per lookup
table ("column"). Index 0 of every table is PADDING (used for the window positions
outside the sentence and for batch padding) and index 1 is UNKNOWN. The character
feature (not in SENNA) is the exception: its columns are a word's character ids, which
one character CNN embeds together.
"""

import re
from collections import Counter
from typing import Dict, Iterable, Iterator, List, Optional, Sequence

import numpy
from spacy.attrs import ORTH
from spacy.tokens import Doc, Token
from spacy.util import registry

from .layers.char_cnn import CharCNNSpec
from .lexicon import PADDING, UNKNOWN, Lexicon

_DIGITS = re.compile(r"[0-9]+")

CAPS_VALUES = ("nocaps", "allcaps", "initcap", "hascap")

#: the character feature's begin- and end-of-word marks (longer than any one character)
WORD_MARKS = ("<w>", "</w>")


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
        return self.text_strings(token.text)

    def text_ids(self, text: str) -> List[int]:
        return [lex.get(v) for lex, v in zip(self.lexicons, self.text_strings(text))]

    def fit(self, docs: Iterable[Doc], vocab=None) -> None:
        """Build the dictionaries from training docs (and optionally `vocab.vectors`)."""
        counts = [Counter() for _ in self.widths]
        for doc in docs:
            for token in _words(doc):
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


class WordFeature(Feature):
    """Lowercased word with digit runs normalised; dictionary from data and vectors.

    When `nlp.vocab.vectors` is non-empty its keys join the dictionary (most frequent
    training words first, then vector keys, up to `max_size`) and their rows initialise
    the lookup table, which is then fine-tuned like every other parameter.
    """

    def __init__(self, width: int, max_size: int, min_freq: int):
        super().__init__([width])
        self.max_size = max_size
        self.min_freq = min_freq
        self._init_rows: Optional[numpy.ndarray] = None

    def text_strings(self, text: str) -> Sequence[str]:
        return (normalize_word(text),)

    def fit(self, docs: Iterable[Doc], vocab=None) -> None:
        counter: Counter = Counter()
        for doc in docs:
            counter.update(normalize_word(t.text) for t in _words(doc))
        words = [w for w, c in counter.most_common() if c >= self.min_freq]
        vector_words: List[str] = []
        vectors = vocab.vectors if vocab is not None else None
        if vectors is not None and vectors.n_keys > 0:
            vector_words = [vocab.strings[key] for key in vectors.keys()]
            in_vectors = set(vector_words)
            # words with vectors first, so a capped dictionary keeps the pretrained rows
            words = [w for w in words if w in in_vectors] + [
                w for w in words if w not in in_vectors
            ]
            seen = set(words)
            words += [w for w in vector_words if w not in seen]
        lexicon = Lexicon.from_words(words[: max(0, self.max_size - 2)])
        self.lexicons = [lexicon]
        self._init_rows = None
        if vector_words:
            self._init_rows = _rows_from_vectors(lexicon, vocab, self.widths[0])

    def initial_table(self, column: int) -> Optional[numpy.ndarray]:
        return self._init_rows


def _words(doc: Doc) -> Iterator[Token]:
    """The doc's tokens without whitespace ones, which the networks never see as words."""
    return (token for token in doc if not token.is_space)


def _rows_from_vectors(lexicon: Lexicon, vocab, width: int) -> numpy.ndarray:
    """A (len(lexicon), width) table: vector rows where known, NaN rows elsewhere."""
    vectors = vocab.vectors
    if vectors.shape[1] != width:
        raise ValueError(
            f"The word feature has width {width} but nlp.vocab.vectors has "
            f"{vectors.shape[1]} dimensions: set the word feature's width to "
            f"{vectors.shape[1]} in the config."
        )
    table = numpy.full((len(lexicon), width), numpy.nan, dtype="float32")
    data = numpy.asarray(vectors.data)
    for key, row in vectors.key2row.items():
        idx = lexicon.get(vocab.strings[key])
        if idx > UNKNOWN:
            table[idx] = data[row]
    return table


class CapsFeature(Feature):
    """SENNA's caps feature: 4 values (+ PADDING, UNKNOWN)."""

    def __init__(self, width: int):
        super().__init__([width])
        self.lexicons = [Lexicon.from_words(CAPS_VALUES)]

    def text_strings(self, text: str) -> Sequence[str]:
        return (caps_value(text),)

    def fit(self, docs: Iterable[Doc], vocab=None) -> None:
        """The caps values are fixed: nothing to learn."""


class SuffixFeature(Feature):
    """The last `length` characters, lowercased (paper §6.1: 455 suffixes in WSJ)."""

    def __init__(self, width: int, length: int):
        super().__init__([width])
        self.length = length

    def text_strings(self, text: str) -> Sequence[str]:
        return (text[-self.length :].lower(),)


class AttrFeature(Feature):
    """Any string token attribute (e.g. `tag_` for the POS cascade of chunker and SRL)."""

    context_free = False

    def __init__(self, attr: str, width: int):
        if not hasattr(Token, attr) and not (
            attr.startswith("_.") and Token.has_extension(attr[2:])
        ):
            raise ValueError(
                f"Unknown token attribute '{attr}' for spacy-senna.AttrFeature.v1: use a "
                "Token attribute such as 'tag_', 'pos_', 'ent_type_' or '_.<extension>'."
            )
        super().__init__([width])
        self.attr = attr

    def token_strings(self, token: Token) -> Sequence[str]:
        if self.attr.startswith("_."):
            return (str(getattr(token._, self.attr[2:])),)
        return (str(getattr(token, self.attr)),)

    def extract(self, doc: Doc, train: bool = False) -> numpy.ndarray:
        lex = self.lexicons[0]
        return numpy.array(
            [[lex.get(v) for v in self.token_strings(t)] for t in doc], dtype="int64"
        ).reshape(len(doc), 1)


class SpanTagFeature(Feature):
    """Each token's IOBES tag in a span group, e.g. the PT0 segments `doc.spans["pt0"]`
    that SENNA's SRL reads (written by a senna_chunker with `spans_key = "pt0"`).

    A doc without the group gets the UNKNOWN id at every token (the component warns).
    """

    context_free = False

    def __init__(self, spans_key: str, width: int):
        if not spans_key:
            raise ValueError("spacy-senna.SpanTagFeature.v1 needs a spans_key, e.g. 'pt0'")
        super().__init__([width])
        self.spans_key = spans_key

    def doc_strings(self, doc: Doc) -> List[str]:
        """The IOBES tag of every token (S-/B-/I-/E-LABEL, or O)."""
        tags = ["O"] * len(doc)
        for span in doc.spans.get(self.spans_key, []):
            label = span.label_
            if len(span) == 1:
                tags[span.start] = f"S-{label}"
                continue
            tags[span.start] = f"B-{label}"
            tags[span.start + 1 : span.end - 1] = [f"I-{label}"] * (len(span) - 2)
            tags[span.end - 1] = f"E-{label}"
        return tags

    def fit(self, docs: Iterable[Doc], vocab=None) -> None:
        counter: Counter = Counter()
        for doc in docs:
            if self.spans_key in doc.spans:
                counter.update(self.doc_strings(doc))
        self.lexicons[0] = Lexicon.from_counts(counter)

    def extract(self, doc: Doc, train: bool = False) -> numpy.ndarray:
        lex = self.lexicons[0]
        if self.spans_key not in doc.spans:
            return numpy.full((len(doc), 1), UNKNOWN, dtype="int64")
        return numpy.array([lex.get(t) for t in self.doc_strings(doc)], dtype="int64").reshape(
            len(doc), 1
        )


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
            for token in _words(doc):
                counter.update(self.chars(token.text))
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


class Featurizer:
    """An ordered set of named features: a doc -> (len(doc), n_columns) ids.

    A feature given as None is left out: `word = null` in a config's [model.features]
    drops a component's default word feature. The columns of the features with one
    lookup table per column come first, in declaration order, then those of the
    character features (one CNN each).
    """

    def __init__(self, features: Dict[str, Optional[Feature]]):
        features = {name: f for name, f in features.items() if f is not None}
        if not features:
            raise ValueError("A senna model needs at least one feature (e.g. 'word').")
        for name, feature in features.items():
            if not isinstance(feature, Feature):
                raise ValueError(
                    f"Feature '{name}' is {type(feature).__name__}, not a spacy-senna "
                    'feature: use e.g. @misc = "spacy-senna.WordFeature.v1", or null to '
                    "leave a default feature out."
                )
        self.features = features
        self._tabled = [f for f in self.features.values() if not isinstance(f, CharFeature)]
        self._chars = [f for f in self.features.values() if isinstance(f, CharFeature)]
        self._all_context_free = all(f.context_free for f in self.features.values())
        self._free = [f for f in self._tabled if f.context_free] + self._chars
        # orth -> ids of every context-free feature, in column order
        self._cache: Dict[int, tuple] = {}

    @property
    def widths(self) -> List[int]:
        """Embedding width of each lookup-table column."""
        return [w for f in self._tabled for w in f.widths]

    @property
    def table_sizes(self) -> List[int]:
        """Rows of each lookup-table column's table."""
        return [s for f in self._tabled for s in f.table_sizes]

    @property
    def char_cnns(self) -> List[CharCNNSpec]:
        """The character CNN of each character feature, for the columns after the tables."""
        return [f.cnn_spec() for f in self._chars]

    def fit(self, docs: List[Doc], vocab=None) -> None:
        for feature in self.features.values():
            feature.fit(docs, vocab)
        self._cache.clear()

    def initial_tables(self) -> List[Optional[numpy.ndarray]]:
        return [f.initial_table(col) for f in self._tabled for col in range(f.n_columns)]

    @property
    def n_columns(self) -> int:
        return sum(f.n_columns for f in self.features.values())

    def extract(self, doc: Doc, train: bool = False) -> numpy.ndarray:
        """(len(doc), n_columns) int64 ids of one doc (`train`: ids for an update).

        The ids of all context-free features are cached together per orth, so a token
        costs one dict lookup (the hot path of every component).
        """
        if not len(doc):
            return numpy.zeros((0, self.n_columns), dtype="int64")
        cache = self._cache
        orths = doc.to_array(ORTH).tolist()
        rows = [cache.get(orth) or self._cache_miss(orth, doc) for orth in orths]
        free = numpy.array(rows, dtype="int64").reshape(len(doc), -1)
        if self._all_context_free:
            return free
        blocks, col = [], 0
        for feature in self._tabled:
            if feature.context_free:
                blocks.append(free[:, col : col + feature.n_columns])
                col += feature.n_columns
            else:
                blocks.append(feature.extract(doc, train))
        if self._chars:
            blocks.append(free[:, col:])  # the character features' columns
        return numpy.concatenate(blocks, axis=1)

    def _cache_miss(self, orth: int, doc: Doc) -> tuple:
        text = doc.vocab.strings[orth]
        ids = tuple(i for f in self._free for i in f.text_ids(text))
        self._cache[orth] = ids
        return ids

    def to_dict(self) -> dict:
        return {name: f.to_dict() for name, f in self.features.items()}

    def from_dict(self, data: dict) -> None:
        self._cache.clear()
        missing = set(self.features) - set(data)
        if missing:
            raise ValueError(
                f"Saved senna model has no data for feature(s) {sorted(missing)}: it was "
                "saved with a different feature configuration."
            )
        for name, feature in self.features.items():
            feature.from_dict(data[name])


@registry.misc("spacy-senna.WordFeature.v1")
def word_feature(width: int = 50, max_size: int = 100000, min_freq: int = 1) -> Feature:
    """Lowercased, digit-normalised word.

    width (int): embedding width (paper: 50).
    max_size (int): dictionary size cap, PADDING and UNKNOWN included (paper: 100,000).
    min_freq (int): minimum training frequency for a word without a vector.
    """
    return WordFeature(width, max_size, min_freq)


@registry.misc("spacy-senna.CapsFeature.v1")
def caps_feature(width: int = 5) -> Feature:
    """Capitalisation (allcaps, initcap, hascap, nocaps). width (int): paper: 5."""
    return CapsFeature(width)


@registry.misc("spacy-senna.SuffixFeature.v1")
def suffix_feature(width: int = 5, length: int = 2) -> Feature:
    """Lowercased suffix. width (int): embedding width. length (int): paper: 2."""
    return SuffixFeature(width, length)


@registry.misc("spacy-senna.CharFeature.v1")
def char_feature(
    char_width: int = 25, width: int = 30, window: int = 3, max_chars: int = 20, min_freq: int = 1
) -> Feature:
    """A word's characters through a character CNN with max pooling (Ma & Hovy 2016;
    not in SENNA). Case is kept.

    char_width (int): character embedding width (Chiu & Nichols: 25, Ma & Hovy: 30).
    width (int): convolution filters, the feature's output width (Ma & Hovy: 30).
    window (int): characters per convolution window, odd (Ma & Hovy: 3).
    max_chars (int): characters kept per word; a longer word keeps its first and last
        max_chars / 2, so that suffixes survive.
    min_freq (int): minimum training frequency of a character to get its own embedding
        (rarer and unseen characters share the UNKNOWN one).
    """
    return CharFeature(char_width, width, window, max_chars, min_freq)


@registry.misc("spacy-senna.SpanTagFeature.v1")
def span_tag_feature(spans_key: str = "pt0", width: int = 5) -> Feature:
    """A span group's IOBES tags as a feature (SENNA's PT0 input to SRL).

    spans_key (str): the span group, e.g. "pt0" (a senna_chunker's spans_key).
    width (int): embedding width (paper: 5 for parse levels).
    """
    return SpanTagFeature(spans_key, width)


@registry.misc("spacy-senna.AttrFeature.v1")
def attr_feature(attr: str = "tag_", width: int = 5) -> Feature:
    """A token attribute as a feature (cascades). attr (str): e.g. "tag_". width (int)."""
    return AttrFeature(attr, width)


__all__ = [
    "UNKNOWN",
    "PADDING",
    "normalize_word",
    "caps_value",
    "Feature",
    "CharFeature",
    "Featurizer",
]
