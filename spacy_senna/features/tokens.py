"""The features of a token's text or attributes: word, caps, suffix, token attribute and
span tag, each with one lookup table."""

import warnings
from collections import Counter
from typing import Callable, Dict, Iterable, List, Optional, Sequence, Tuple

import numpy
from spacy.attrs import IDS
from spacy.tokens import Doc, Token
from thinc.util import to_numpy

from ..labels.span_groups import span_bounds
from ..layers.lexicon import UNKNOWN, Lexicon
from .base import CAPS_VALUES, Feature, caps_value, normalize_word, word_tokens


class WordFeature(Feature):
    """Lowercased word with digit runs normalised; dictionary from data and vectors.

    When `nlp.vocab.vectors` is non-empty its keys join the dictionary (most frequent
    training words first, then vector keys, up to `max_size`) and their rows initialise
    the lookup table, which is then fine-tuned like every other parameter (SENNA), or
    with `fine_tune_vectors` off keeps them as pretrained, so that words the training
    never saw stay comparable with those it saw.
    """

    def __init__(self, width: int, max_size: int, min_freq: int, fine_tune_vectors: bool = True):
        super().__init__([width])
        self.max_size = max_size
        self.min_freq = min_freq
        self.fine_tune_initial = fine_tune_vectors
        self._init_rows: Optional[numpy.ndarray] = None

    def text_strings(self, text: str) -> Sequence[str]:
        return (normalize_word(text),)

    def fit(self, docs: Iterable[Doc], vocab=None) -> None:
        counter: Counter = Counter()
        for doc in docs:
            counter.update(self.token_strings(t)[0] for t in word_tokens(doc))
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
        if not vector_words and not self.fine_tune_initial:
            warnings.warn(
                "The word feature has fine_tune_vectors = false but nlp.vocab.vectors is "
                "empty, so no row is kept: pass the vectors ([initialize] vectors, or "
                "--paths.vectors) or leave fine_tune_vectors at true."
            )
        lexicon = Lexicon.from_words(words[: max(0, self.max_size - 2)])
        self.lexicons = [lexicon]
        self._init_rows = None
        if vector_words:
            self._init_rows = _rows_from_vectors(lexicon, vocab, self.widths[0])

    def initial_table(self, column: int) -> Optional[numpy.ndarray]:
        return self._init_rows


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
    data = to_numpy(vectors.data)  # on a GPU (spacy.require_gpu) the vectors are CuPy
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
        # a string attribute with a Doc.to_array column (tag_ -> TAG): its ids are read
        # from the column and cached per value, one dict lookup per token
        name = attr[:-1].upper()
        self._column: Optional[int] = IDS.get(name) if attr.endswith("_") else None
        self._ids_by_value: Dict[int, int] = {}

    def token_strings(self, token: Token) -> Sequence[str]:
        if self.attr.startswith("_."):
            return (str(getattr(token._, self.attr[2:])),)
        return (str(getattr(token, self.attr)),)

    def fit(self, docs: Iterable[Doc], vocab=None) -> None:
        super().fit(docs, vocab)
        self._ids_by_value.clear()

    def from_dict(self, data: dict) -> None:
        super().from_dict(data)
        self._ids_by_value.clear()

    def extract(self, doc: Doc, train: bool = False) -> numpy.ndarray:
        lex = self.lexicons[0]
        if self._column is None:
            ids = [lex.get(self.token_strings(t)[0]) for t in doc]
        else:
            cache = self._ids_by_value
            values = doc.to_array(self._column).tolist()
            ids = [
                cache[v] if v in cache else self._value_id(v, doc[i]) for i, v in enumerate(values)
            ]
        return numpy.array(ids, dtype="int64").reshape(len(doc), 1)

    def _value_id(self, value: int, token: Token) -> int:
        """The id of a column value, from the string of a token that has it."""
        idx = self.lexicons[0].get(self.token_strings(token)[0])
        self._ids_by_value[value] = idx
        return idx


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
        # label -> the ids of its S-, B-, I- and E- tags, until the dictionary changes
        self._ids_by_label: Dict[str, Tuple[int, int, int, int]] = {}

    def doc_strings(self, doc: Doc) -> List[str]:
        """The IOBES tag of every token (S-/B-/I-/E-LABEL, or O)."""
        tags = ["O"] * len(doc)
        self._set_tags(span_bounds(doc, self.spans_key), tags, _iobes)
        return tags

    @staticmethod
    def _set_tags(
        spans: Iterable[Tuple[str, int, int]], out: list, tags_of: Callable[[str], tuple]
    ) -> None:
        """Write the IOBES rule into the list `out`, span by span ((label, start, end)
        each): `tags_of(label)` gives the (S, B, I, E) values of a label (asked once per
        label). List slices, not array ones: a doc's spans are a few dozen."""
        by_label: Dict[str, tuple] = {}
        for label, start, end in spans:
            if label not in by_label:
                by_label[label] = tags_of(label)
            single, begin, inside, last = by_label[label]
            if end - start == 1:
                out[start] = single
                continue
            out[start] = begin
            if end - start > 2:
                out[start + 1 : end - 1] = [inside] * (end - start - 2)
            out[end - 1] = last

    def fit(self, docs: Iterable[Doc], vocab=None) -> None:
        counter: Counter = Counter()
        for doc in docs:
            if self.spans_key in doc.spans:
                counter.update(self.doc_strings(doc))
        self.lexicons[0] = Lexicon.from_counts(counter)
        self._ids_by_label.clear()

    def from_dict(self, data: dict) -> None:
        super().from_dict(data)
        self._ids_by_label.clear()

    def extract(self, doc: Doc, train: bool = False) -> numpy.ndarray:
        """The ids of `doc_strings`, set span by span (four lookups per label, not one
        per token)."""
        if self.spans_key not in doc.spans:
            return numpy.full((len(doc), 1), UNKNOWN, dtype="int64")
        return self.span_ids(len(doc), span_bounds(doc, self.spans_key))

    def span_ids(self, n_tokens: int, spans: Iterable[Tuple[str, int, int]]) -> numpy.ndarray:
        """(n_tokens, 1): the ids `extract` gives a doc of `n_tokens` tokens whose span
        group holds `spans` ((label, start, end) each, not overlapping)."""
        ids = [self.lexicons[0].get("O")] * n_tokens
        self._set_tags(spans, ids, self._label_ids)
        return numpy.array(ids, dtype="int64").reshape(n_tokens, 1)

    def _label_ids(self, label: str) -> Tuple[int, int, int, int]:
        """The ids of a label's S-, B-, I- and E- tags."""
        ids = self._ids_by_label.get(label)
        if ids is None:
            lex = self.lexicons[0]
            ids = self._ids_by_label[label] = tuple(lex.get(tag) for tag in _iobes(label))
        return ids


def _iobes(label: str) -> Tuple[str, str, str, str]:
    """The S-, B-, I- and E- tags of a label."""
    return (f"S-{label}", f"B-{label}", f"I-{label}", f"E-{label}")
