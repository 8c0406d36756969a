"""The news grammar's building blocks: tokens (word, PTB tag, IOB2 entity tag), phrases
(chunk label, tokens), a sentence assembled from phrases, a noun phrase with its number.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional, Sequence

from lexicon import Verb

from spacy_senna.labels.tags import OUTSIDE, chunks_to_iob2

Part = tuple[str, str, str]  # (word, PTB tag, entity tag in IOB2)
Phrase = tuple[Optional[str], list[Part]]  # (chunk label or None for O, tokens)

YOU = ("Euro", "eu", "uni", "use")  # vowel letters sounding like "you": "a unit", "a European"
BE = {
    ("present", False): "is",
    ("present", True): "are",
    ("past", False): "was",
    ("past", True): "were",
}
HAVE = {
    ("present", False): "has",
    ("present", True): "have",
    ("past", False): "had",
    ("past", True): "had",
}
DO = {
    ("present", False): "does",
    ("present", True): "do",
    ("past", False): "did",
    ("past", True): "did",
}
ELECT = Verb("elect", "elects", "elected", "elected", "electing")


def iob2(label: Optional[str], n_tokens: int) -> list[str]:
    """IOB2 tags of `n_tokens` tokens that form one chunk `label` (all O for None)."""
    if label is None or not n_tokens:
        return [OUTSIDE] * n_tokens
    return chunks_to_iob2([(label, 0, n_tokens)], n_tokens)


def w(word: str, tag: str) -> Part:
    """A token outside any entity."""
    return (word, tag, OUTSIDE)


def ent(label: str, words: Sequence[str], tags: Sequence[str]) -> list[Part]:
    """Tokens of one entity (IOB2)."""
    return list(zip(words, tags, iob2(label, len(words))))


def named(label: str, words: Sequence[str], tags: Sequence[str]) -> list[Part]:
    """An entity from a vocabulary list; a leading `the` is a determiner outside it."""
    if words[0] == "the":
        return [w("the", "DT")] + ent(label, words[1:], tags[1:])
    return ent(label, words, tags)


@dataclass
class Sentence:
    """One sentence: words, PTB tags, chunk tags (IOB2), entity tags (IOB2)."""

    words: list[str] = field(default_factory=list)
    tags: list[str] = field(default_factory=list)
    chunks: list[str] = field(default_factory=list)
    ents: list[str] = field(default_factory=list)

    def add(self, phrases: Sequence[Phrase]) -> "Sentence":
        """Append phrases; a label of None means the tokens are outside chunks (O)."""
        for label, parts in phrases:
            self.words += [word for word, _, _ in parts]
            self.tags += [tag for _, tag, _ in parts]
            self.ents += [ent_tag for _, _, ent_tag in parts]
            self.chunks += iob2(label, len(parts))
        return self


@dataclass
class Noun:
    """A noun phrase as phrases, with its grammatical number."""

    phrases: list[Phrase]
    plural: bool = False
