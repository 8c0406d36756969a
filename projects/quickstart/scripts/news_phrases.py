"""The news grammar's phrases: entities, noun phrases, numbers, money and dates, verb groups,
each built from words of lexicon.py with their Penn Treebank tags and entity tags.
"""

from __future__ import annotations

import random
from typing import Optional, Sequence

from lexicon import (
    ADJECTIVES,
    BUSINESS_NOUNS,
    CITIES,
    COUNTRIES,
    DAYS,
    EVENTS,
    FIRST_NAMES,
    INTENT_VERBS,
    LAST_NAMES,
    MASS_NOUNS,
    MEETING_VERBS,
    MODALS,
    MONTHS,
    NATIONALITIES,
    NUMBER_WORDS,
    ORG_PREFIXES,
    ORG_SUFFIXES,
    ORGANISATIONS,
    PEOPLE_NOUNS,
    PREVERBAL_ADVERBS,
    SUPERLATIVES,
    SURNAME_CODAS,
    SURNAME_ONSETS,
    TEAM_SUFFIXES,
    TITLES,
    TRANSITIVE_VERBS,
    NounForms,
    Verb,
)
from news_parts import BE, DO, HAVE, YOU, Noun, Part, Phrase, ent, named, w


class PhraseGrammar:
    """Random phrases over the vocabulary in lexicon.py."""

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
