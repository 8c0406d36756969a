"""Token -> discrete SENNA features (paper §3.5, §6; released-SENNA details in the digest §12).

Every feature maps each token of a Doc to one or more small integers, one per lookup
table ("column"). Index 0 of every table is PADDING (used for the window positions
outside the sentence and for batch padding) and index 1 is UNKNOWN. The character
feature (not in SENNA) is the exception: its columns are a word's character ids, which
one character CNN embeds together.

The features live in `base` (word forms, the `Feature` interface), `tokens` (one lookup
table each), `chars` (the character CNN's input), `shared` (a senna_words table read by several
components) and `featurizer` (a component's set);
this module registers their config functions.
"""

from spacy.util import registry

from ..layers.lexicon import PADDING, UNKNOWN
from .base import CAPS_VALUES, Feature, caps_value, normalize_word
from .chars import WORD_MARKS, CharFeature
from .featurizer import Featurizer
from .shared import ANY_UPSTREAM, SharedWordsFeature
from .tokens import AttrFeature, CapsFeature, SpanTagFeature, SuffixFeature, WordFeature


@registry.misc("spacy-senna.WordFeature.v1")
def word_feature(
    width: int = 50, max_size: int = 100000, min_freq: int = 1, fine_tune_vectors: bool = True
) -> Feature:
    """Lowercased, digit-normalised word.

    width (int): embedding width (paper: 50).
    max_size (int): dictionary size cap, PADDING and UNKNOWN included (paper: 100,000).
    min_freq (int): minimum training frequency for a word without a vector.
    fine_tune_vectors (bool): train the rows initialised from `nlp.vocab.vectors` (SENNA
        fine-tunes them); false keeps them as pretrained (rows without a vector still
        learn). Weight decay (`L2` with `L2_is_weight_decay`) still shrinks them.
    """
    return WordFeature(width, max_size, min_freq, fine_tune_vectors)


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


@registry.misc("spacy-senna.SharedWords.v1")
def shared_words_feature(upstream: str = ANY_UPSTREAM) -> Feature:
    """The lookup tables of a `senna_words` component earlier in the pipeline, shared
    with the other components that read them (paper §5; not a table of this model's).

    upstream (str): the senna_words component's name, or "*" for the nearest one.
    """
    return SharedWordsFeature(upstream)


@registry.misc("spacy-senna.AttrFeature.v1")
def attr_feature(attr: str = "tag_", width: int = 5) -> Feature:
    """A token attribute as a feature (cascades). attr (str): e.g. "tag_". width (int)."""
    return AttrFeature(attr, width)


__all__ = [
    "UNKNOWN",
    "PADDING",
    "CAPS_VALUES",
    "WORD_MARKS",
    "normalize_word",
    "caps_value",
    "Feature",
    "WordFeature",
    "CapsFeature",
    "SuffixFeature",
    "AttrFeature",
    "SpanTagFeature",
    "CharFeature",
    "Featurizer",
    "SharedWordsFeature",
    "word_feature",
    "caps_feature",
    "suffix_feature",
    "char_feature",
    "span_tag_feature",
    "attr_feature",
    "shared_words_feature",
]
