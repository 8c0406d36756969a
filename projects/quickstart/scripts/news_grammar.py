"""The news grammar: random phrases, clauses and stories over the vocabulary in lexicon.py.

Each sentence is built from phrases, so its Penn Treebank tags, CoNLL-2000 chunks and
CoNLL-2003 entities are correct by construction.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Callable, Optional, Sequence

from lexicon import (
    ADJECTIVES,
    AGENDA_NOUNS,
    BUSINESS_NOUNS,
    CITIES,
    COMPARATIVES,
    COUNTRIES,
    DAYS,
    EVENTS,
    FIRST_NAMES,
    INTENT_VERBS,
    INTRO_ADVERBS,
    LAST_NAMES,
    MASS_NOUNS,
    MEETING_VERBS,
    MODALS,
    MONTH_ABBREVIATIONS,
    MONTHS,
    MOVEMENT_ADVERBS,
    MOVEMENT_VERBS,
    NATIONALITIES,
    NUMBER_WORDS,
    ORG_PREFIXES,
    ORG_SUFFIXES,
    ORGANISATIONS,
    PEOPLE_NOUNS,
    PHRASAL_VERBS,
    POLICY_NOUNS,
    POLICY_VERBS,
    PREDICATIVE_ADJECTIVES,
    PREVERBAL_ADVERBS,
    SPORTS,
    SUBORDINATORS,
    SUPERLATIVES,
    SURNAME_CODAS,
    SURNAME_ONSETS,
    TEAM_SUFFIXES,
    TEAM_VERBS,
    TITLES,
    TRANSITIVE_VERBS,
    WINNING_VERBS,
    NounForms,
    Verb,
)

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


class Grammar:
    """Random phrase and sentence generators over the vocabulary in lexicon.py."""

    def __init__(self, rng: random.Random):
        self.rng = rng

    # --- small helpers
    def p(self, prob: float) -> bool:
        return self.rng.random() < prob

    def pick(self, items: Sequence):
        return self.rng.choice(items)

    def surname(self) -> str:
        if self.p(0.3):
            return self.pick(SURNAME_ONSETS) + self.pick(SURNAME_CODAS)
        return self.pick(LAST_NAMES)

    def number(self) -> str:
        r = self.rng.random()
        if r < 0.5:
            return str(self.rng.randint(2, 99))
        if r < 0.75:
            return f"{self.rng.randint(1, 9)}.{self.rng.randint(1, 9)}"
        return f"{self.rng.randint(1, 9)},{self.rng.randint(100, 999)}"

    def small_number(self) -> str:
        """A percentage that reads well after "a" (no 8, 11 or 18)."""
        while True:
            n = self.rng.randint(1, 49) if self.p(0.7) else self.rng.randint(10, 99) / 10
            text = f"{n}"
            if not text.startswith(("8", "11", "18")):
                return text

    def score(self, a: int, b: int) -> list[Part]:
        """`3-2`, as spaCy's tokenizer splits it: `3 - 2`."""
        return [w(str(a), "CD"), w("-", ":"), w(str(b), "CD")]

    # --- entities
    def person(self, full: Optional[bool] = None) -> list[Part]:
        if full is None:
            full = self.p(0.7)
        if full:
            return ent("PER", [self.pick(FIRST_NAMES), self.surname()], ["NNP", "NNP"])
        return ent("PER", [self.surname()], ["NNP"])

    def titled_person(self) -> list[Part]:
        title = self.pick(TITLES)
        return [w(t, "NNP") for t in title] + self.person(full=self.p(0.3))

    def city(self) -> list[Part]:
        words = self.pick(CITIES)
        return ent("LOC", words, ["NNP"] * len(words))

    def country(self) -> list[Part]:
        return named("LOC", *self.pick(COUNTRIES))

    def place(self) -> list[Part]:
        return self.city() if self.p(0.6) else self.country()

    def org(self) -> list[Part]:
        r = self.rng.random()
        if r < 0.2:
            return named("ORG", *self.pick(ORGANISATIONS))
        suffix_words, suffix_tags = self.pick(ORG_SUFFIXES)
        if r < 0.45:
            first = self.pick(ORG_PREFIXES)
        elif r < 0.6:
            first = self.pick([c[0] for c in CITIES if len(c) == 1])
        else:
            first = self.surname()
        return ent("ORG", [first] + suffix_words, ["NNP"] + suffix_tags)

    def team(self) -> list[Part]:
        if self.p(0.5):
            return self.country()
        words = self.pick(CITIES) + [self.pick(TEAM_SUFFIXES)]
        return ent("ORG", words, ["NNP"] * len(words))

    def event(self) -> list[Part]:
        return named("MISC", *self.pick(EVENTS))

    def nationality(self) -> list[Part]:
        return ent("MISC", [self.pick(NATIONALITIES)], ["JJ"])

    # --- noun phrases
    def determiner(self, plural: bool, next_word: str, det: Optional[str] = None) -> list[Part]:
        """A random determiner for `next_word` ("a"/"an" as it sounds); none for some plurals."""
        if det is None and plural:
            det = self.pick(["the", "the", "some", "these", "all", "", ""])
        elif det is None:
            det = self.pick(["the", "the", "the", "a", "a", "this", "that", "every"])
        if det == "a" and next_word[0].lower() in "aeiou" and not next_word.startswith(YOU):
            det = "an"
        return [w(det, "DT")] if det else []

    def common_np(self, nouns: Sequence[NounForms], plural: Optional[bool] = None) -> Noun:
        if plural is None:
            plural = self.p(0.35)
        sg, pl = self.pick(nouns)
        mods: list[Part] = []
        if self.p(0.15):
            mods.append(self.pick(self.nationality_or_adj()))
        elif self.p(0.4):
            mods.append(w(self.pick(ADJECTIVES), "JJ"))
        if self.p(0.1) and not plural:
            mods.append(w(self.pick(MASS_NOUNS), "NN"))  # noun compound, e.g. "the oil deal"
        mods.append(w(pl if plural else sg, "NNS" if plural else "NN"))
        if plural and self.p(0.2):
            return Noun([("NP", [w(self.pick(NUMBER_WORDS), "CD")] + mods)], plural)
        return Noun([("NP", self.determiner(plural, mods[0][0]) + mods)], plural)

    def nationality_or_adj(self) -> list[Part]:
        return [self.nationality()[0], w(self.pick(ADJECTIVES), "JJ")]

    def possessive(self, owner: list[Part], nouns: Sequence[NounForms]) -> Noun:
        """`Acme Corp. 's new factory`: the `'s` starts a new NP (CoNLL-2000)."""
        plural = self.p(0.3)
        sg, pl = self.pick(nouns)
        tail = [w("'s", "POS")]
        if self.p(0.15):
            tail.append(w(self.pick(SUPERLATIVES), "JJS"))
        elif self.p(0.2):
            tail.append(w(self.pick(ADJECTIVES), "JJ"))
        tail.append(w(pl if plural else sg, "NNS" if plural else "NN"))
        return Noun([("NP", owner), ("NP", tail)], plural)

    def money(self) -> list[Phrase]:
        r = self.rng.random()
        if r < 0.5:
            parts = [w("$", "$"), w(self.number(), "CD")]
            if self.p(0.6):
                parts.append(w(self.pick(["million", "billion"]), "CD"))
            return [("NP", parts)]
        currency = self.pick(["dollars", "euros", "pounds", "yen"])
        return [
            (
                "NP",
                [
                    w(self.number(), "CD"),
                    w(self.pick(["million", "billion"]), "CD"),
                    w(currency, "NNS"),
                ],
            )
        ]

    def percent(self) -> list[Phrase]:
        return [("NP", [w(self.small_number(), "CD"), w(self.pick(["percent", "%"]), "NN")])]

    def time(self) -> list[Phrase]:
        r = self.rng.random()
        if r < 0.4:
            return [("PP", [w("on", "IN")]), ("NP", [w(self.pick(DAYS), "NNP")])]
        if r < 0.6:
            return [("PP", [w("in", "IN")]), ("NP", [w(self.pick(MONTHS), "NNP")])]
        if r < 0.75:
            return [
                (
                    "NP",
                    [
                        w(self.pick(["last", "next"]), "JJ"),
                        w(self.pick(["week", "month", "year"]), "NN"),
                    ],
                )
            ]
        if r < 0.85:
            return [("NP", [w("this", "DT"), w(self.pick(["week", "month", "year"]), "NN")])]
        if r < 0.93:
            return [("PP", [w("in", "IN")]), ("NP", [w(str(self.rng.randint(1990, 2030)), "CD")])]
        return [("NP", [w("yesterday", "NN")])]

    def speaker(self) -> Noun:
        r = self.rng.random()
        if r < 0.35:
            return Noun([("NP", self.person())])
        if r < 0.5:
            return Noun([("NP", self.titled_person())])
        if r < 0.7:
            role = self.pick(PEOPLE_NOUNS)
            det = self.pick([self.determiner(False, role[0], "a")[0][0], "the"])
            return Noun(
                [
                    ("NP", [w(det, "DT"), w(role[0], "NN")]),
                    ("PP", [w(self.pick(["for", "of", "at"]), "IN")]),
                    ("NP", self.org()),
                ]
            )
        if r < 0.85:
            return Noun([("NP", self.org())])
        role = self.pick(PEOPLE_NOUNS)
        return Noun([("NP", [w(role[1], "NNS")])], plural=True)

    def pronoun(self) -> Noun:
        word, plural = self.pick(
            [("he", False), ("she", False), ("it", False), ("they", True), ("we", True)]
        )
        return Noun([("NP", [w(word, "PRP")])], plural)

    def business_subject(self) -> Noun:
        r = self.rng.random()
        if r < 0.4:
            return Noun([("NP", self.org())])
        if r < 0.55:
            return self.common_np([("company", "companies")] + PEOPLE_NOUNS)
        if r < 0.7:
            return self.pronoun()
        if r < 0.8:
            return self.possessive(self.org(), PEOPLE_NOUNS)
        if r < 0.9:
            return Noun(
                [
                    (
                        "NP",
                        [w("the", "DT")]
                        + self.nationality()
                        + [w(self.pick(["company", "group", "bank"]), "NN")],
                    )
                ]
            )
        np = self.appositive(Noun([("NP", self.person())]))
        return np

    def appositive(self, head: Noun) -> Noun:
        """`John Smith , the chairman of Acme Corp. ,` or `Acme Corp. , which makes cars ,`."""
        phrases = list(head.phrases) + [(None, [w(",", ",")])]
        if self.p(0.5):
            role = self.pick(PEOPLE_NOUNS)[0]
            phrases += [
                ("NP", [w("the", "DT"), w(role, "NN")]),
                ("PP", [w("of", "IN")]),
                ("NP", self.org()),
            ]
        else:
            rel = (
                "who"
                if any(e.endswith("PER") for _, parts in head.phrases for _, _, e in parts)
                else "which"
            )
            verb = self.pick(TRANSITIVE_VERBS + MEETING_VERBS)
            phrases += [
                ("NP", [w(rel, "WP" if rel == "who" else "WDT")]),
                ("VP", [w(verb.past, "VBD")]),
            ]
            phrases += self.business_object().phrases
        phrases.append((None, [w(",", ",")]))
        return Noun(phrases, head.plural)

    def business_object(self) -> Noun:
        r = self.rng.random()
        if r < 0.45:
            return self.common_np(BUSINESS_NOUNS)
        if r < 0.6:
            np = self.common_np(BUSINESS_NOUNS, plural=False)
            return Noun(
                np.phrases
                + [("PP", [w(self.pick(["in", "with", "from"]), "IN")]), ("NP", self.org())]
            )
        if r < 0.7:
            return Noun(
                [
                    (
                        "NP",
                        [
                            w("a", "DT"),
                            w(self.small_number(), "CD"),
                            w("percent", "NN"),
                            w("stake", "NN"),
                        ],
                    ),
                    ("PP", [w("in", "IN")]),
                    ("NP", self.org()),
                ]
            )
        if r < 0.8:
            return Noun([("NP", self.org())])
        if r < 0.9:
            return self.possessive(self.org(), BUSINESS_NOUNS)
        return Noun([("NP", [w(self.pick(MASS_NOUNS), "NN")])])

    # --- verb groups
    def verb_group(self, verb: Verb, plural: bool, allow_adverb: bool = True) -> list[Phrase]:
        """A finite verb group; a pre-verbal adverb is its own ADVP after a subject, but
        part of the VP chunk after an auxiliary (CoNLL-2000)."""
        adverb = [w(self.pick(PREVERBAL_ADVERBS), "RB")] if allow_adverb and self.p(0.15) else []
        pre: list[Phrase] = [("ADVP", adverb)] if adverb else []  # `he also said`
        r = self.rng.random()
        if r < 0.35:
            return pre + [("VP", [w(verb.past, "VBD")])]
        if r < 0.5:
            form = [w(verb.base, "VBP")] if plural else [w(verb.s3, "VBZ")]
            return pre + [("VP", form)]
        if r < 0.65:
            neg = [w("not", "RB")] if self.p(0.2) else []
            return [("VP", [w(self.pick(MODALS), "MD")] + adverb + neg + [w(verb.base, "VB")])]
        if r < 0.75:
            tense = self.pick(["present", "past"])
            aux = HAVE[(tense, plural)]
            aux_tag = "VBD" if tense == "past" else ("VBP" if plural else "VBZ")
            return [("VP", [w(aux, aux_tag)] + adverb + [w(verb.pp, "VBN")])]
        if r < 0.83:
            tense = self.pick(["present", "past"])
            aux = BE[(tense, plural)]
            aux_tag = "VBD" if tense == "past" else ("VBP" if plural else "VBZ")
            return [("VP", [w(aux, aux_tag)] + adverb + [w(verb.ing, "VBG")])]
        if r < 0.9:
            tense = self.pick(["present", "past"])
            aux = DO[(tense, plural)]
            aux_tag = "VBD" if tense == "past" else ("VBP" if plural else "VBZ")
            return [("VP", [w(aux, aux_tag), w("not", "RB"), w(verb.base, "VB")])]
        intent = self.pick([v for v in INTENT_VERBS if v.base != verb.base])
        if intent.base == "expect" and self.p(0.5):
            aux = BE[(self.pick(["present", "past"]), plural)]
            tag = "VBD" if aux in ("was", "were") else ("VBP" if plural else "VBZ")
            lead = [w(aux, tag), w("expected", "VBN")]
        elif self.p(0.5):
            lead = [w(intent.past, "VBD")]
        else:
            lead = [w(intent.base, "VBP")] if plural else [w(intent.s3, "VBZ")]
        return [("VP", lead + [w("to", "TO"), w(verb.base, "VB")])]

    # --- clauses
    def business_clause(self) -> list[Phrase]:
        subject = self.business_subject()
        if self.p(0.12):
            verb, particle = self.pick(PHRASAL_VERBS)
            phrases = subject.phrases + self.verb_group(verb, subject.plural)
            phrases += [("PRT", [w(particle, "RP")])] + self.business_object().phrases
        else:
            phrases = subject.phrases + self.verb_group(self.pick(TRANSITIVE_VERBS), subject.plural)
            phrases += self.business_object().phrases
        r = self.rng.random()
        if r < 0.2:
            phrases += [("PP", [w("for", "IN")])] + self.money()
        elif r < 0.35:
            phrases += [
                ("PP", [w(self.pick(["in", "near", "outside"]), "IN")]),
                ("NP", self.place()),
            ]
        if self.p(0.35):
            phrases += self.time()
        return phrases

    def market_clause(self) -> list[Phrase]:
        r = self.rng.random()
        if r < 0.3:
            subject = Noun(
                [("NP", [w("Shares", "NNS")]), ("PP", [w("of", "IN")]), ("NP", self.org())],
                plural=True,
            )
        elif r < 0.5:
            subject = self.possessive(
                self.org(), [("share", "shares"), ("profit", "profits"), ("sale", "sales")]
            )
        elif r < 0.7:
            noun = self.pick(["dollar", "euro", "yen", "index", "price of oil", "price of gold"])
            if noun.startswith("price"):
                _, _, thing = noun.split()
                subject = Noun(
                    [
                        ("NP", [w("the", "DT"), w("price", "NN")]),
                        ("PP", [w("of", "IN")]),
                        ("NP", [w(thing, "NN")]),
                    ]
                )
            else:
                subject = Noun([("NP", [w("the", "DT"), w(noun, "NN")])])
        else:
            subject = Noun(
                [("NP", [w(self.pick(["profits", "sales", "prices", "exports"]), "NNS")])],
                plural=True,
            )
        verb = self.pick(MOVEMENT_VERBS)
        if self.p(0.75):
            group: list[Phrase] = [("VP", [w(verb.past, "VBD")])]
        else:
            group = self.verb_group(verb, subject.plural, allow_adverb=False)
        phrases = subject.phrases + group
        if self.p(0.3):
            phrases.append(("ADVP", [w(self.pick(MOVEMENT_ADVERBS), "RB")]))
        if self.p(0.6):
            phrases += self.percent()
        if self.p(0.4):
            phrases += [("PP", [self.pick([w("to", "TO"), w("from", "IN")])])] + self.money()
        if self.p(0.4):
            phrases += self.time()
        return phrases

    def politics_clause(self) -> list[Phrase]:
        r = self.rng.random()
        if r < 0.35:
            subject = self.pick(
                [
                    Noun([("NP", [w("the", "DT")] + self.nationality() + [w("government", "NN")])]),
                    Noun(
                        [
                            (
                                "NP",
                                self.nationality()
                                + [w(self.pick(["officials", "ministers"]), "NNS")],
                            )
                        ],
                        plural=True,
                    ),
                    Noun([("NP", self.org())]),
                ]
            )
            verb = self.pick(POLICY_VERBS)
            obj = self.common_np(POLICY_NOUNS)
            phrases = subject.phrases + self.verb_group(verb, subject.plural) + obj.phrases
        elif r < 0.7:
            subject = Noun([("NP", self.titled_person() if self.p(0.5) else self.person())])
            verb = self.pick(MEETING_VERBS)
            obj = (
                self.place()
                if verb.base == "visit"
                else (self.person() if self.p(0.6) else self.org())
            )
            phrases = subject.phrases + self.verb_group(verb, False) + [("NP", obj)]
            if verb.base in ("meet", "visit") and self.p(0.5):
                phrases += [("PP", [w("in", "IN")]), ("NP", self.city())]
            if self.p(0.3):
                phrases += [
                    ("VP", [w("to", "TO"), w(self.pick(["discuss", "sign", "review"]), "VB")])
                ]
                phrases += self.common_np(POLICY_NOUNS + AGENDA_NOUNS).phrases
        else:
            where = self.country()
            phrases = [("NP", [w("Voters", "NNS")]), ("PP", [w("in", "IN")]), ("NP", where)]
            phrases += self.verb_group(ELECT, True)
            phrases += [
                (
                    "NP",
                    [
                        w("a", "DT"),
                        w("new", "JJ"),
                        w(self.pick(["parliament", "president", "government"]), "NN"),
                    ],
                )
            ]
        if self.p(0.4):
            phrases += self.time()
        return phrases

    def sports_clause(self) -> list[Phrase]:
        r = self.rng.random()
        goals = self.rng.randint(1, 5)
        score = self.score(goals, self.rng.randint(0, goals - 1))
        if r < 0.4:
            verb = self.pick(WINNING_VERBS)
            phrases = [
                ("NP", self.team()),
                ("VP", [w(verb.past, "VBD")]),
                ("NP", self.team()),
                ("NP", score),
            ]
            if self.p(0.5):
                phrases += [("PP", [w("in", "IN")])]
                if self.p(0.5):
                    phrases += [("NP", self.event())]
                else:
                    phrases += [
                        (
                            "NP",
                            [w("a", "DT"), w(self.pick(["friendly", "qualifier", "final"]), "NN")],
                        )
                    ]
        elif r < 0.55:
            phrases = [
                ("NP", self.team()),
                ("VP", [w("drew", "VBD")]),
                ("NP", self.score(goals, goals)),
                ("PP", [w("with", "IN")]),
                ("NP", self.team()),
            ]
        elif r < 0.75:
            phrases = [("NP", self.person())]
            phrases += [("VP", [w("scored", "VBD")])]
            phrases += self.pick(
                [
                    [("ADVP", [w("twice", "RB")])],
                    [("NP", [w(self.pick(["two", "three", "four"]), "CD"), w("goals", "NNS")])],
                    [("NP", [w("the", "DT"), w("winner", "NN")])],
                ]
            )
            phrases += [
                ("SBAR", [w("as", "IN")]),
                ("NP", self.team()),
                ("VP", [w(self.pick(WINNING_VERBS).past, "VBD")]),
                ("NP", self.team()),
                ("NP", score),
            ]
        elif r < 0.88:
            phrases = [
                ("NP", self.person(full=True)),
                (None, [w("(", "(")]),
                ("NP", self.country()),
                (None, [w(")", ")")]),
                ("VP", [w("beat", "VBD")]),
                ("NP", self.person(full=True)),
                (None, [w("(", "(")]),
                ("NP", self.country()),
                (None, [w(")", ")")]),
                ("PP", [w("in", "IN")]),
                ("NP", [w(self.pick(["straight", "three", "five"]), "JJ"), w("sets", "NNS")]),
            ]
        else:
            player = Noun([("NP", self.person())])
            if self.p(0.5):
                player = self.appositive(player)
            verb = self.pick(TEAM_VERBS)
            phrases = player.phrases + self.verb_group(verb, False) + [("NP", self.team())]
            if self.p(0.5):
                size = w(self.pick(["new", "big", "large", "small"]), "JJ")
                phrases += [
                    ("PP", [w("on", "IN")]),
                    ("NP", [w("a", "DT"), size, w("contract", "NN")]),
                    ("PP", [w("until", "IN")]),
                    ("NP", [w(str(self.rng.randint(2001, 2031)), "CD")]),
                ]
        if self.p(0.3):
            phrases += self.time()
        return phrases

    def copula_clause(self) -> list[Phrase]:
        subject = self.business_subject() if self.p(0.6) else self.speaker()
        tense = self.pick(["present", "past"])
        aux = BE[(tense, subject.plural)]
        tag = "VBD" if tense == "past" else ("VBP" if subject.plural else "VBZ")
        phrases = subject.phrases + [("VP", [w(aux, tag)])]
        if self.p(0.6):
            adjp = [w("very", "RB")] if self.p(0.3) else []
            adjp.append(w(self.pick(PREDICATIVE_ADJECTIVES), "JJ"))
            phrases.append(("ADJP", adjp))
        elif self.p(0.5):
            phrases.append(
                (
                    "NP",
                    [
                        w("the", "DT"),
                        w(self.pick(SUPERLATIVES), "JJS"),
                        w(self.pick(["company", "bank"]), "NN"),
                    ],
                )
            )
            phrases += [("PP", [w("in", "IN")]), ("NP", self.place())]
        else:
            phrases.append(("ADJP", [w(self.pick(COMPARATIVES), "JJR")]))
            phrases += [("SBAR", [w("than", "IN")]), ("VP", [w("expected", "VBN")])]
        return phrases

    def passive_clause(self) -> list[Phrase]:
        thing = self.common_np(BUSINESS_NOUNS + POLICY_NOUNS)
        aux = BE[(self.pick(["present", "past"]), thing.plural)]
        tag = "VBD" if aux in ("was", "were") else ("VBP" if thing.plural else "VBZ")
        verb = self.pick(TRANSITIVE_VERBS)
        phrases = thing.phrases + [("VP", [w(aux, tag), w(verb.pp, "VBN")])]
        agent = self.org() if self.p(0.6) else self.titled_person()
        phrases += [("PP", [w("by", "IN")]), ("NP", agent)]
        if self.p(0.3):
            phrases += self.time()
        return phrases

    def clause(self, domain: str) -> list[Phrase]:
        makers: dict[str, list[Callable[[], list[Phrase]]]] = {
            "business": [
                self.business_clause,
                self.business_clause,
                self.market_clause,
                self.copula_clause,
                self.passive_clause,
            ],
            "sports": [self.sports_clause, self.sports_clause, self.copula_clause],
            "politics": [
                self.politics_clause,
                self.politics_clause,
                self.passive_clause,
                self.copula_clause,
            ],
        }
        return self.pick(makers[domain])()

    # --- sentences
    def sentence(self, domain: str) -> Sentence:
        r = self.rng.random()
        end = [(None, [w(".", ".")])]
        if r < 0.2:  # reported speech: `X said that CLAUSE .`
            speaker = self.speaker()
            phrases = speaker.phrases + [("VP", [w("said", "VBD")])]
            if self.p(0.3):
                phrases += self.time()
            if self.p(0.7):
                phrases.append(("SBAR", [w("that", "IN")]))
            phrases += self.clause(domain)
        elif r < 0.32:  # `CLAUSE , X said .` / `CLAUSE , said X .` / quoted
            speaker = self.speaker()
            quoted = self.p(0.4)
            phrases = ([(None, [w('"', "``")])] if quoted else []) + self.clause(domain)
            phrases.append((None, [w(",", ",")] + ([w('"', "''")] if quoted else [])))
            if self.p(0.3):
                phrases += [("VP", [w("said", "VBD")])] + speaker.phrases
            else:
                tense = self.pick([("said", "VBD"), ("says", "VBZ")])
                if speaker.plural:
                    tense = ("said", "VBD")
                phrases += speaker.phrases + [("VP", [w(*tense)])]
        elif r < 0.42:  # `After CLAUSE , CLAUSE .`
            phrases = [("SBAR", [w(self.pick(SUBORDINATORS), "IN")])] + self.clause(domain)
            phrases += [(None, [w(",", ",")])] + self.clause(domain)
        elif r < 0.5:  # `CLAUSE because CLAUSE .`
            phrases = self.clause(domain) + [("SBAR", [w(self.pick(SUBORDINATORS), "IN")])]
            phrases += self.clause(domain)
        elif r < 0.58:  # coordination
            phrases = self.clause(domain) + [
                (None, [w(",", ","), w(self.pick(["and", "but"]), "CC")])
            ]
            phrases += self.clause(domain)
        elif r < 0.66:  # `However , CLAUSE .`
            phrases = [("ADVP", [w(self.pick(INTRO_ADVERBS), "RB")]), (None, [w(",", ",")])]
            phrases += self.clause(domain)
        else:
            phrases = self.clause(domain)
        sentence = Sentence().add(phrases + end)
        for i, word in enumerate(sentence.words):
            if word not in ('"', "(") and word[:1].isalpha():
                sentence.words[i] = word[0].upper() + word[1:]
                break
            if word not in ('"', "("):
                break
        return sentence

    def headline(self, domain: str) -> Sentence:
        """All-caps headline, e.g. `SOCCER - ENGLAND BEAT POLAND 2 - 1`."""
        if domain == "sports":
            verb = self.pick(WINNING_VERBS)
            phrases: list[Phrase] = [
                ("NP", [w(self.pick(SPORTS), "NN")]),
                (None, [w("-", ":")]),
                ("NP", self.team()),
                ("VP", [w(verb.past, "VBD")]),
                ("NP", self.team()),
                ("NP", self.score(self.rng.randint(1, 5), 0)),
            ]
        else:
            verb = self.pick(MOVEMENT_VERBS)
            phrases = self.possessive(
                self.org(), [("profit", "profits"), ("share", "shares"), ("sale", "sales")]
            ).phrases
            plural = phrases[-1][1][-1][1] == "NNS"
            phrases.append(("VP", [w(verb.base, "VBP")] if plural else [w(verb.s3, "VBZ")]))
            phrases += self.percent()
        phrases = [
            (label, [(x if x.endswith(".") else x.upper(), t, e) for x, t, e in parts])
            for label, parts in phrases
        ]
        return Sentence().add(phrases)

    def dateline(self) -> Sentence:
        """`LONDON , Aug. 22`: the city a LOC."""
        city = [(x.upper(), t, e) for x, t, e in self.city()]
        date = [w(self.pick(MONTH_ABBREVIATIONS), "NNP"), w(str(self.rng.randint(1, 28)), "CD")]
        return Sentence().add([("NP", city), (None, [w(",", ",")]), ("NP", date)])

    def story(self) -> list[Sentence]:
        domain = self.pick(["business", "business", "sports", "politics"])
        sentences = []
        if self.p(0.5):
            sentences.append(self.headline(domain))
        if self.p(0.6):
            sentences.append(self.dateline())
        sentences += [self.sentence(domain) for _ in range(self.rng.randint(2, 6))]
        return sentences
