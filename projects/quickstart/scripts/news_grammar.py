"""The news grammar: random phrases, clauses and stories over the vocabulary in lexicon.py.

Each sentence is built from phrases, so its Penn Treebank tags, CoNLL-2000 chunks and
CoNLL-2003 entities are correct by construction.
"""

from __future__ import annotations

from typing import Callable

from lexicon import (
    AGENDA_NOUNS,
    BUSINESS_NOUNS,
    COMPARATIVES,
    INTRO_ADVERBS,
    MEETING_VERBS,
    MONTH_ABBREVIATIONS,
    MOVEMENT_ADVERBS,
    MOVEMENT_VERBS,
    PHRASAL_VERBS,
    POLICY_NOUNS,
    POLICY_VERBS,
    PREDICATIVE_ADJECTIVES,
    SPORTS,
    SUBORDINATORS,
    SUPERLATIVES,
    TEAM_VERBS,
    TRANSITIVE_VERBS,
    WINNING_VERBS,
)
from news_parts import BE, ELECT, Noun, Phrase, Sentence, w
from news_phrases import PhraseGrammar


class Grammar(PhraseGrammar):
    """Random clauses, sentences, headlines and stories over the phrases of PhraseGrammar."""

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
