"""Generate the quickstart's demo corpus: seeded, template-built English news sentences.

Every sentence comes from a small hand-written grammar and vocabulary (no external data),
so its Penn Treebank POS tags, CoNLL-2000 chunks and CoNLL-2003 entities are correct by
construction. This is *generated* data for a smoke test and demo, not a benchmark.

    python scripts/make_data.py assets --seed 0 --n-train 800 --n-dev 200

writes, under OUTPUT_DIR, in the formats `python -m spacy_senna convert` reads:

    pos/{train,dev}.tsv     WORD<TAB>TAG                      (--converter wsj-pos)
    chunk/{train,dev}.txt   WORD POS CHUNK, chunks in IOB2    (--converter conll2000)
    ner/{train,dev}.conll   WORD POS CHUNK NER, IOB1 tags,    (--converter conll2003)
                            -DOCSTART- between stories
    srl/{train,dev}.txt     CoNLL-2005 columns, one frame     (--converter conll2005)
                            (A0/A1/A2/AM-* roles and V) per sentence

The SRL sentences are a separate, simpler set (one predicate per clause: transitive,
meeting, passive, movement and sports templates, each with its PropBank roles) drawn from
their own random stream, so they do not change the other files.
"""

from __future__ import annotations

import argparse
import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Dict, Iterator, List, Optional, Sequence, Set, Tuple

Part = Tuple[str, str, str]  # (word, PTB tag, entity tag in IOB2)
Phrase = Tuple[Optional[str], List[Part]]  # (chunk label or None for O, tokens)

# ---------------------------------------------------------------------------- vocabulary

FIRST_NAMES = (
    "John Mary Peter Anna David Maria Michael Sarah James Laura Thomas Elena Robert Sophie "
    "Daniel Julia Paul Nina Mark Clara Ahmed Yuki Carlos Ingrid Pierre Fatima Igor Mei Lars "
    "Amara Kenji Olga Diego Hannah Tomas Leila Viktor Grace Omar Rosa"
).split()
LAST_NAMES = (
    "Smith Johnson Brown Miller Garcia Martin Schmidt Rossi Kowalski Novak Tanaka Silva "
    "Dubois Jensen Murphy Petrov Haddad Okafor Lindqvist Moreau Fischer Costa Walsh Becker "
    "Romano Nakamura Horvat Ivanova Mendez Larsen Kaplan Osei Bauer Conti Hughes Sato"
).split()
# syllables for made-up surnames and company names, so that dev has unseen proper nouns
ONSETS = "Bel Dra Kor Mav Tal Ven Zor Lud Gri Sol Bran Cal Fen Hol Mar Pel Ros Tor Wel Dun".split()
CODAS = "ando eski ovic ner sen ley ford ini ard ton berg mont ker vik dale".split()
TITLES = [["Mr."], ["Mrs."], ["Ms."], ["Dr."], ["President"], ["Minister"], ["Prime", "Minister"]]
CITIES = [
    c.split()
    for c in (
        "London|Paris|Berlin|Madrid|Rome|Tokyo|Moscow|Lisbon|Vienna|Prague|Dublin|Oslo|Cairo|"
        "Nairobi|Lagos|Sydney|Toronto|Chicago|Boston|Seoul|Mumbai|Lyon|Munich|Milan|Geneva|"
        "Warsaw|Athens|Istanbul|Manchester|Glasgow|New York|Los Angeles|Hong Kong|"
        "San Francisco|Buenos Aires|Cape Town|Tel Aviv|Kuala Lumpur"
    ).split("|")
]
# (words, tags); a leading "the" is a determiner outside the entity
COUNTRIES: List[Tuple[List[str], List[str]]] = [
    ([c], ["NNP"])
    for c in (
        "France Germany Spain Italy Japan Russia Brazil Canada India China Kenya Egypt Australia "
        "Mexico Poland Sweden Norway Portugal Greece Turkey Nigeria Argentina England Moldova"
    ).split()
] + [
    (["the", "Netherlands"], ["DT", "NNP"]),
    (["the", "United", "States"], ["DT", "NNP", "NNPS"]),
    (["the", "United", "Kingdom"], ["DT", "NNP", "NNP"]),
    (["South", "Africa"], ["NNP", "NNP"]),
    (["New", "Zealand"], ["NNP", "NNP"]),
    (["South", "Korea"], ["NNP", "NNP"]),
]
NATIONALITIES = (
    "French German Spanish Italian Japanese Russian Brazilian Canadian Indian Chinese Kenyan "
    "Egyptian Australian Mexican Polish Swedish British American European Dutch"
).split()
ORG_SUFFIXES = [
    ("Corp.", "NNP"),
    ("Inc.", "NNP"),
    ("Group", "NNP"),
    ("Bank", "NNP"),
    ("Holdings", "NNP"),
    ("Airlines", "NNPS"),
    ("Motors", "NNPS"),
    ("Systems", "NNPS"),
    ("Industries", "NNPS"),
    ("Partners", "NNPS"),
    ("Energy", "NNP"),
    ("Telecom", "NNP"),
    ("Foods", "NNPS"),
]
ORG_PREFIXES = "Global United National Pacific Atlantic Northern Royal General Standard".split()
FIXED_ORGS: List[Tuple[List[str], List[str]]] = [
    (["the", "United", "Nations"], ["DT", "NNP", "NNPS"]),
    (["the", "European", "Union"], ["DT", "NNP", "NNP"]),
    (["the", "World", "Bank"], ["DT", "NNP", "NNP"]),
    (["the", "Federal", "Reserve"], ["DT", "NNP", "NNP"]),
    (["Reuters"], ["NNP"]),
    (["NATO"], ["NNP"]),
]
TEAM_SUFFIXES = "United City Rovers Athletic Wanderers".split()
EVENTS: List[Tuple[List[str], List[str]]] = [
    (["the", "World", "Cup"], ["DT", "NNP", "NNP"]),
    (["the", "Olympic", "Games"], ["DT", "NNP", "NNPS"]),
    (["the", "Champions", "League"], ["DT", "NNPS", "NNP"]),
    (["the", "Davis", "Cup"], ["DT", "NNP", "NNP"]),
    (["the", "European", "Championship"], ["DT", "NNP", "NNP"]),
]
MONTH_ABBREVIATIONS = "Jan. Feb. Aug. Sept. Oct. Nov. Dec.".split()
SPORTS = "SOCCER TENNIS RUGBY CRICKET BASKETBALL".split()
DAYS = "Monday Tuesday Wednesday Thursday Friday Saturday Sunday".split()
MONTHS = "January February March April May June July August September October November".split()

# (singular, plural)
BUSINESS_NOUNS = [
    tuple(p.split("/"))
    for p in (
        "company/companies bank/banks deal/deals contract/contracts plan/plans "
        "report/reports office/offices factory/factories market/markets product/products "
        "plant/plants project/projects stake/stakes unit/units bid/bids loan/loans "
        "order/orders service/services network/networks store/stores bond/bonds "
        "agreement/agreements investment/investments offer/offers budget/budgets"
    ).split()
]
PEOPLE_NOUNS = [
    tuple(p.split("/"))
    for p in (
        "chairman/chairmen president/presidents spokesman/spokesmen analyst/analysts "
        "official/officials minister/ministers investor/investors director/directors "
        "executive/executives lawyer/lawyers worker/workers manager/managers "
        "economist/economists"
    ).split()
]
SPORT_NOUNS = [
    tuple(p.split("/"))
    for p in "match/matches game/games goal/goals title/titles final/finals team/teams".split()
]
POLICY_NOUNS = [
    tuple(p.split("/"))
    for p in "law/laws reform/reforms tax/taxes policy/policies election/elections".split()
]
MASS_NOUNS = "growth inflation demand trade support money oil gold power security research".split()
ADJECTIVES = (
    "new big large small major strong weak local foreign annual early former senior key "
    "public private national international financial economic quarterly political"
).split()
PREDICATIVE = "confident optimistic cautious unhappy profitable likely difficult important".split()
COMPARATIVES = "higher lower larger stronger weaker better".split()
SUPERLATIVES = "largest biggest strongest best".split()
PREVERBAL_ADVERBS = "also still already recently now".split()
MANNER_ADVERBS = "sharply slightly quickly again later".split()
INTRO_ADVERBS = "However Meanwhile Separately Nevertheless".split()
MODALS = "will would could may might should can".split()
NUMBER_WORDS = "two three four five six ten twelve".split()
YOU = ("Euro", "eu", "uni", "use")  # vowel letters sounding like "you": "a unit", "a European"
SUBORDINATORS = "after before because while although".split()


@dataclass(frozen=True)
class Verb:
    """The five PTB verb forms: VB/VBP, VBZ, VBD, VBN, VBG."""

    base: str
    s3: str
    past: str
    pp: str
    ing: str


def _verbs(spec: str) -> List[Verb]:
    return [Verb(*entry.split("/")) for entry in spec.split()]


TRANSITIVE = _verbs(
    "buy/buys/bought/bought/buying sell/sells/sold/sold/selling "
    "acquire/acquires/acquired/acquired/acquiring open/opens/opened/opened/opening "
    "close/closes/closed/closed/closing sign/signs/signed/signed/signing "
    "build/builds/built/built/building launch/launches/launched/launched/launching "
    "announce/announces/announced/announced/announcing report/reports/reported/reported/reporting "
    "cut/cuts/cut/cut/cutting raise/raises/raised/raised/raising "
    "reject/rejects/rejected/rejected/rejecting approve/approves/approved/approved/approving "
    "complete/completes/completed/completed/completing offer/offers/offered/offered/offering "
    "receive/receives/received/received/receiving plan/plans/planned/planned/planning "
    "seek/seeks/sought/sought/seeking hold/holds/held/held/holding "
    "make/makes/made/made/making need/needs/needed/needed/needing "
    "support/supports/supported/supported/supporting back/backs/backed/backed/backing"
)
MEETING = _verbs(
    "visit/visits/visited/visited/visiting meet/meets/met/met/meeting "
    "criticize/criticizes/criticized/criticized/criticizing "
    "thank/thanks/thanked/thanked/thanking join/joins/joined/joined/joining "
    "lead/leads/led/led/leading"
)
MOVEMENT = _verbs(
    "rise/rises/rose/risen/rising fall/falls/fell/fallen/falling "
    "climb/climbs/climbed/climbed/climbing drop/drops/dropped/dropped/dropping "
    "jump/jumps/jumped/jumped/jumping slip/slips/slipped/slipped/slipping "
    "gain/gains/gained/gained/gaining"
)
WINNING = _verbs(
    "beat/beats/beat/beaten/beating defeat/defeats/defeated/defeated/defeating "
    "edge/edges/edged/edged/edging"
)
INTENT = _verbs(
    "plan/plans/planned/planned/planning agree/agrees/agreed/agreed/agreeing "
    "want/wants/wanted/wanted/wanting hope/hopes/hoped/hoped/hoping "
    "expect/expects/expected/expected/expecting"
)
# verb + particle (RP, chunk PRT)
PHRASAL_TRANSITIVE = [
    (Verb("take", "takes", "took", "taken", "taking"), "over"),
    (Verb("set", "sets", "set", "set", "setting"), "up"),
    (Verb("buy", "buys", "bought", "bought", "buying"), "out"),
]
PHRASAL_INTRANSITIVE = [
    (Verb("step", "steps", "stepped", "stepped", "stepping"), "down"),
    (Verb("pull", "pulls", "pulled", "pulled", "pulling"), "out"),
    (Verb("give", "gives", "gave", "given", "giving"), "up"),
]
SAY = Verb("say", "says", "said", "said", "saying")
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

# ---------------------------------------------------------------------------- building


def w(word: str, tag: str) -> Part:
    """A token outside any entity."""
    return (word, tag, "O")


def ent(label: str, words: Sequence[str], tags: Sequence[str]) -> List[Part]:
    """Tokens of one entity (IOB2)."""
    return [(x, t, ("B-" if i == 0 else "I-") + label) for i, (x, t) in enumerate(zip(words, tags))]


@dataclass
class Sentence:
    """One sentence: words, PTB tags, chunk tags (IOB2), entity tags (IOB2)."""

    words: List[str] = field(default_factory=list)
    tags: List[str] = field(default_factory=list)
    chunks: List[str] = field(default_factory=list)
    ents: List[str] = field(default_factory=list)

    def add(self, phrases: Sequence[Phrase]) -> "Sentence":
        """Append phrases; a label of None means the tokens are outside chunks (O)."""
        for label, parts in phrases:
            for i, (word, tag, ent_tag) in enumerate(parts):
                self.words.append(word)
                self.tags.append(tag)
                self.ents.append(ent_tag)
                self.chunks.append("O" if label is None else ("B-" if i == 0 else "I-") + label)
        return self


@dataclass
class Noun:
    """A noun phrase as phrases, with its grammatical number."""

    phrases: List[Phrase]
    plural: bool = False


class Grammar:
    """Random phrase and sentence generators over the vocabulary above."""

    def __init__(self, rng: random.Random):
        self.rng = rng

    # --- small helpers
    def p(self, prob: float) -> bool:
        return self.rng.random() < prob

    def pick(self, items: Sequence):
        return self.rng.choice(items)

    def surname(self) -> str:
        if self.p(0.3):
            return self.pick(ONSETS) + self.pick(CODAS)
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

    def score(self, a: int, b: int) -> List[Part]:
        """`3-2`, as spaCy's tokenizer splits it: `3 - 2`."""
        return [w(str(a), "CD"), w("-", ":"), w(str(b), "CD")]

    # --- entities
    def person(self, full: Optional[bool] = None) -> List[Part]:
        if full is None:
            full = self.p(0.7)
        if full:
            return ent("PER", [self.pick(FIRST_NAMES), self.surname()], ["NNP", "NNP"])
        return ent("PER", [self.surname()], ["NNP"])

    def titled_person(self) -> List[Part]:
        title = self.pick(TITLES)
        return [w(t, "NNP") for t in title] + self.person(full=self.p(0.3))

    def city(self) -> List[Part]:
        words = self.pick(CITIES)
        return ent("LOC", words, ["NNP"] * len(words))

    def country(self) -> List[Part]:
        words, tags = self.pick(COUNTRIES)
        if words[0] == "the":
            return [w("the", "DT")] + ent("LOC", words[1:], tags[1:])
        return ent("LOC", words, tags)

    def place(self) -> List[Part]:
        return self.city() if self.p(0.6) else self.country()

    def org(self) -> List[Part]:
        r = self.rng.random()
        if r < 0.2:
            words, tags = self.pick(FIXED_ORGS)
            if words[0] == "the":
                return [w("the", "DT")] + ent("ORG", words[1:], tags[1:])
            return ent("ORG", words, tags)
        suffix, tag = self.pick(ORG_SUFFIXES)
        if r < 0.45:
            first = self.pick(ORG_PREFIXES)
        elif r < 0.6:
            first = self.pick([c[0] for c in CITIES if len(c) == 1])
        else:
            first = self.surname()
        return ent("ORG", [first, suffix], ["NNP", tag])

    def team(self) -> List[Part]:
        if self.p(0.5):
            return self.country()
        words = self.pick(CITIES) + [self.pick(TEAM_SUFFIXES)]
        return ent("ORG", words, ["NNP"] * len(words))

    def event(self) -> List[Part]:
        words, tags = self.pick(EVENTS)
        return [w("the", "DT")] + ent("MISC", words[1:], tags[1:])

    def nationality(self) -> List[Part]:
        return ent("MISC", [self.pick(NATIONALITIES)], ["JJ"])

    # --- noun phrases
    def determiner(self, plural: bool, next_word: str, det: Optional[str] = None) -> List[Part]:
        """A random determiner for `next_word` ("a"/"an" as it sounds); none for some plurals."""
        if det is None and plural:
            det = self.pick(["the", "the", "some", "these", "all", "", ""])
        elif det is None:
            det = self.pick(["the", "the", "the", "a", "a", "this", "that", "every"])
        if det == "a" and next_word[0].lower() in "aeiou" and not next_word.startswith(YOU):
            det = "an"
        return [w(det, "DT")] if det else []

    def common_np(self, nouns: Sequence[Tuple[str, str]], plural: Optional[bool] = None) -> Noun:
        if plural is None:
            plural = self.p(0.35)
        sg, pl = self.pick(nouns)
        mods: List[Part] = []
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

    def nationality_or_adj(self) -> List[Part]:
        return [self.nationality()[0], w(self.pick(ADJECTIVES), "JJ")]

    def possessive(self, owner: List[Part], nouns: Sequence[Tuple[str, str]]) -> Noun:
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

    def money(self) -> List[Phrase]:
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

    def percent(self) -> List[Phrase]:
        return [("NP", [w(self.small_number(), "CD"), w(self.pick(["percent", "%"]), "NN")])]

    def time(self) -> List[Phrase]:
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
            return self.common_np(BUSINESS_NOUNS[:1] + PEOPLE_NOUNS)
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
            verb = self.pick(TRANSITIVE + MEETING)
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
    def verb_group(self, verb: Verb, plural: bool, allow_adverb: bool = True) -> List[Phrase]:
        """A finite verb group; a pre-verbal adverb is its own ADVP after a subject, but
        part of the VP chunk after an auxiliary (CoNLL-2000)."""
        adverb = [w(self.pick(PREVERBAL_ADVERBS), "RB")] if allow_adverb and self.p(0.15) else []
        pre: List[Phrase] = [("ADVP", adverb)] if adverb else []  # `he also said`
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
        intent = self.pick([v for v in INTENT if v.base != verb.base])
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
    def business_clause(self) -> List[Phrase]:
        subject = self.business_subject()
        if self.p(0.12):
            verb, particle = self.pick(PHRASAL_TRANSITIVE)
            phrases = subject.phrases + self.verb_group(verb, subject.plural)
            phrases += [("PRT", [w(particle, "RP")])] + self.business_object().phrases
        else:
            phrases = subject.phrases + self.verb_group(self.pick(TRANSITIVE), subject.plural)
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

    def market_clause(self) -> List[Phrase]:
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
        verb = self.pick(MOVEMENT)
        if self.p(0.75):
            group: List[Phrase] = [("VP", [w(verb.past, "VBD")])]
        else:
            group = self.verb_group(verb, subject.plural, allow_adverb=False)
        phrases = subject.phrases + group
        if self.p(0.3):
            phrases.append(("ADVP", [w(self.pick(MANNER_ADVERBS[:2]), "RB")]))
        if self.p(0.6):
            phrases += self.percent()
        if self.p(0.4):
            phrases += [("PP", [self.pick([w("to", "TO"), w("from", "IN")])])] + self.money()
        if self.p(0.4):
            phrases += self.time()
        return phrases

    def politics_clause(self) -> List[Phrase]:
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
            verb = self.pick(TRANSITIVE[10:])
            obj = self.common_np(POLICY_NOUNS)
            phrases = subject.phrases + self.verb_group(verb, subject.plural) + obj.phrases
        elif r < 0.7:
            subject = Noun([("NP", self.titled_person() if self.p(0.5) else self.person())])
            verb = self.pick(MEETING)
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
                phrases += self.common_np(POLICY_NOUNS + BUSINESS_NOUNS[:4]).phrases
        else:
            where = self.country()
            phrases = [("NP", [w("Voters", "NNS")]), ("PP", [w("in", "IN")]), ("NP", where)]
            phrases += self.verb_group(
                Verb("elect", "elects", "elected", "elected", "electing"), True
            )
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

    def sports_clause(self) -> List[Phrase]:
        r = self.rng.random()
        goals = self.rng.randint(1, 5)
        score = self.score(goals, self.rng.randint(0, goals - 1))
        if r < 0.4:
            verb = self.pick(WINNING)
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
                    [("NP", [w(self.pick(NUMBER_WORDS[:3]), "CD"), w("goals", "NNS")])],
                    [("NP", [w("the", "DT"), w("winner", "NN")])],
                ]
            )
            phrases += [
                ("SBAR", [w("as", "IN")]),
                ("NP", self.team()),
                ("VP", [w(self.pick(WINNING).past, "VBD")]),
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
            verb = self.pick(MEETING[4:])  # join, lead
            phrases = player.phrases + self.verb_group(verb, False) + [("NP", self.team())]
            if self.p(0.5):
                phrases += [
                    ("PP", [w("on", "IN")]),
                    ("NP", [w("a", "DT"), w(self.pick(ADJECTIVES[:4]), "JJ"), w("contract", "NN")]),
                    ("PP", [w("until", "IN")]),
                    ("NP", [w(str(self.rng.randint(2001, 2031)), "CD")]),
                ]
        if self.p(0.3):
            phrases += self.time()
        return phrases

    def copula_clause(self) -> List[Phrase]:
        subject = self.business_subject() if self.p(0.6) else self.speaker()
        tense = self.pick(["present", "past"])
        aux = BE[(tense, subject.plural)]
        tag = "VBD" if tense == "past" else ("VBP" if subject.plural else "VBZ")
        phrases = subject.phrases + [("VP", [w(aux, tag)])]
        if self.p(0.6):
            adjp = [w("very", "RB")] if self.p(0.3) else []
            adjp.append(w(self.pick(PREDICATIVE), "JJ"))
            phrases.append(("ADJP", adjp))
        elif self.p(0.5):
            phrases.append(
                (
                    "NP",
                    [
                        w("the", "DT"),
                        w(self.pick(SUPERLATIVES), "JJS"),
                        w(self.pick(BUSINESS_NOUNS[:2])[0], "NN"),
                    ],
                )
            )
            phrases += [("PP", [w("in", "IN")]), ("NP", self.place())]
        else:
            phrases.append(("ADJP", [w(self.pick(COMPARATIVES), "JJR")]))
            phrases += [("SBAR", [w("than", "IN")]), ("VP", [w("expected", "VBN")])]
        return phrases

    def passive_clause(self) -> List[Phrase]:
        thing = self.common_np(BUSINESS_NOUNS + POLICY_NOUNS)
        aux = BE[(self.pick(["present", "past"]), thing.plural)]
        tag = "VBD" if aux in ("was", "were") else ("VBP" if thing.plural else "VBZ")
        verb = self.pick(TRANSITIVE)
        phrases = thing.phrases + [("VP", [w(aux, tag), w(verb.pp, "VBN")])]
        agent = self.org() if self.p(0.6) else self.titled_person()
        phrases += [("PP", [w("by", "IN")]), ("NP", agent)]
        if self.p(0.3):
            phrases += self.time()
        return phrases

    def clause(self, domain: str) -> List[Phrase]:
        makers: Dict[str, List[Callable[[], List[Phrase]]]] = {
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
            verb = self.pick(WINNING)
            phrases: List[Phrase] = [
                ("NP", [w(self.pick(SPORTS), "NN")]),
                (None, [w("-", ":")]),
                ("NP", self.team()),
                ("VP", [w(verb.past, "VBD")]),
                ("NP", self.team()),
                ("NP", self.score(self.rng.randint(1, 5), 0)),
            ]
        else:
            verb = self.pick(MOVEMENT)
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

    def story(self) -> List[Sentence]:
        domain = self.pick(["business", "business", "sports", "politics"])
        sentences = []
        if self.p(0.5):
            sentences.append(self.headline(domain))
        if self.p(0.6):
            sentences.append(self.dateline())
        sentences += [self.sentence(domain) for _ in range(self.rng.randint(2, 6))]
        return sentences


# ---------------------------------------------------------------------------- SRL

Role = Tuple[Optional[str], List[Part]]  # (PropBank role or None, tokens)


@dataclass
class SrlSentence:
    """One sentence with one predicate: words, PTB tags and its argument frame."""

    words: List[str]
    tags: List[str]
    predicate: int
    lemma: str
    arguments: List[Tuple[str, int, int]]  # (role, start, end), V included


def _parts(phrases: Sequence[Phrase]) -> List[Part]:
    return [part for _, parts in phrases for part in parts]


class SrlGrammar(Grammar):
    """Clauses with one predicate whose roles follow from the template (PropBank style)."""

    def finite(self, verb: Verb, plural: bool) -> List[Role]:
        """V in the past or present, or a modal (AM-MOD) + base form."""
        r = self.rng.random()
        if r < 0.5:
            return [("V", [w(verb.past, "VBD")])]
        if r < 0.75:
            return [("V", [w(verb.base, "VBP")] if plural else [w(verb.s3, "VBZ")])]
        return [("AM-MOD", [w(self.pick(MODALS), "MD")]), ("V", [w(verb.base, "VB")])]

    def modifiers(self, place: float, time: float) -> List[Role]:
        roles: List[Role] = []
        if self.p(place):
            roles.append(("AM-LOC", [w(self.pick(["in", "near"]), "IN")] + self.place()))
        if self.p(time):
            roles.append(("AM-TMP", _parts(self.time())))
        return roles

    def srl_clause(self) -> Tuple[str, List[Role]]:
        """(predicate lemma, roles in order)."""
        r = self.rng.random()
        if r < 0.3:  # `Brenford Holdings bought a small bank in Lyon last week`
            subject, verb = self.business_subject(), self.pick(TRANSITIVE)
            roles = [("A0", _parts(subject.phrases))] + self.finite(verb, subject.plural)
            roles.append(("A1", _parts(self.business_object().phrases)))
            return verb.base, roles + self.modifiers(0.3, 0.4)
        if r < 0.5:  # `Mr. Tanaka met Anna Silva in Oslo on Monday`
            verb = self.pick(MEETING)
            subject = self.titled_person() if self.p(0.5) else self.person()
            obj = self.place() if verb.base == "visit" else self.person()
            roles = [("A0", subject)] + self.finite(verb, False) + [("A1", obj)]
            return verb.base, roles + self.modifiers(0.3 if verb.base != "visit" else 0, 0.4)
        if r < 0.7:  # `The deal was approved by the government yesterday`
            thing, verb = self.common_np(BUSINESS_NOUNS + POLICY_NOUNS), self.pick(TRANSITIVE)
            aux = BE[(self.pick(["present", "past"]), thing.plural)]
            tag = "VBD" if aux in ("was", "were") else ("VBP" if thing.plural else "VBZ")
            agent = self.org() if self.p(0.6) else self.titled_person()
            roles = [("A1", _parts(thing.phrases)), (None, [w(aux, tag)])]
            roles += [("V", [w(verb.pp, "VBN")]), ("A0", [w("by", "IN")] + agent)]
            return verb.base, roles + self.modifiers(0, 0.4)
        if r < 0.85:  # `Shares of Pacific Motors rose 4 percent in March`
            verb = self.pick(MOVEMENT)
            subject = self.possessive(self.org(), [("profit", "profits"), ("sale", "sales")])
            roles = [("A1", _parts(subject.phrases)), ("V", [w(verb.past, "VBD")])]
            roles.append(("A2", _parts(self.percent())))
            return verb.base, roles + self.modifiers(0, 0.5)
        verb = self.pick(WINNING)  # `England beat Poland in the final`
        roles = [("A0", self.team()), ("V", [w(verb.past, "VBD")]), ("A1", self.team())]
        if self.p(0.4):
            roles.append(("AM-LOC", [w("in", "IN")] + self.event()))
        return verb.base, roles + self.modifiers(0, 0.3)

    def srl_sentence(self) -> SrlSentence:
        lemma, roles = self.srl_clause()
        words: List[str] = []
        tags: List[str] = []
        arguments: List[Tuple[str, int, int]] = []
        for role, parts in roles + [(None, [w(".", ".")])]:
            if role is not None:
                arguments.append((role, len(words), len(words) + len(parts)))
            words += [x for x, _, _ in parts]
            tags += [t for _, t, _ in parts]
        words[0] = words[0][0].upper() + words[0][1:]
        predicate = next(start for role, start, _ in arguments if role == "V")
        return SrlSentence(words, tags, predicate, lemma, arguments)


def generate_srl(seed: int, n_train: int, n_dev: int) -> Tuple[List[SrlSentence], ...]:
    """Distinct SRL sentences from their own random stream: (train, dev)."""
    grammar = SrlGrammar(random.Random(f"srl-{seed}"))
    seen: Set[Tuple[str, ...]] = set()
    out: List[SrlSentence] = []
    while len(out) < n_train + n_dev:
        sentence = grammar.srl_sentence()
        if tuple(sentence.words) not in seen:
            seen.add(tuple(sentence.words))
            out.append(sentence)
    return out[:n_train], out[n_train:]


def srl_column(sentence: SrlSentence) -> List[str]:
    """The frame in CoNLL-2005 Start-End format: `(A0*`, `*`, `*)`, `(V*)`."""
    column = ["*"] * len(sentence.words)
    for role, start, end in sentence.arguments:
        column[start] = f"({role}" + column[start]
        column[end - 1] += ")"
    return column


def write_srl(sentences: List[SrlSentence], output_dir: Path, name: str) -> None:
    """WORD POS PARSE NE SENSE TARGET PROPS lines (parse and NE left empty: `*`)."""
    path = output_dir / "srl" / f"{name}.txt"
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", encoding="utf8") as f:
        for s in sentences:
            for i, (x, t, prop) in enumerate(zip(s.words, s.tags, srl_column(s))):
                target = s.lemma if i == s.predicate else "-"
                f.write(f"{x} {t} * * - {target} {prop}\n")
            f.write("\n")
    n_words = sum(len(s.words) for s in sentences)
    print(f"✔ {name}: {len(sentences)} SRL sentences, {n_words} words -> {path}")


# ---------------------------------------------------------------------------- checks & io


def iob2_to_iob1(tags: Sequence[str]) -> List[str]:
    """IOB2 -> IOB1: B- only where a chunk directly follows one of the same type."""
    out = []
    prev = "O"
    for tag in tags:
        if tag.startswith("B-") and not (prev != "O" and prev[2:] == tag[2:]):
            tag = "I-" + tag[2:]
        out.append(tag)
        prev = tag
    return out


ENTITY_TAGS = {
    "PER": {"NNP"},
    "LOC": {"NNP", "NNPS"},
    "ORG": {"NNP", "NNPS"},
    "MISC": {"NNP", "NNPS", "JJ"},
}


def spans(tags: Sequence[str]) -> List[Tuple[str, int, int]]:
    """(label, start, end) of each IOB2 chunk."""
    out: List[Tuple[str, int, int]] = []
    for i, tag in enumerate(tags):
        if tag.startswith("B-"):
            out.append((tag[2:], i, i + 1))
        elif tag.startswith("I-"):
            out[-1] = (out[-1][0], out[-1][1], i + 1)
    return out


def check(sentence: Sentence) -> None:
    """Raise ValueError if the sentence's annotation is inconsistent."""
    s = sentence
    n = len(s.words)
    if not n or not (len(s.tags) == len(s.chunks) == len(s.ents) == n):
        raise ValueError(f"length mismatch in {s.words}")
    for column in (s.chunks, s.ents):
        for i, tag in enumerate(column):
            if tag == "O":
                continue
            if tag[:2] not in ("B-", "I-") or not tag[2:]:
                raise ValueError(f"bad tag {tag!r} in {s.words}")
            if tag.startswith("I-") and (
                i == 0 or column[i - 1][2:] != tag[2:] or column[i - 1] == "O"
            ):
                raise ValueError(f"I- tag without B- at {i} in {s.words}")
    chunk_spans = spans(s.chunks)
    for label, start, end in spans(s.ents):
        allowed = ENTITY_TAGS[label]
        if any(t not in allowed for t in s.tags[start:end]):
            raise ValueError(f"{label} entity with tags {s.tags[start:end]} in {s.words}")
        if not any(c == "NP" and cs <= start and end <= ce for c, cs, ce in chunk_spans):
            raise ValueError(f"{label} entity {s.words[start:end]} outside an NP chunk")
    for label, start, end in chunk_spans:
        tags = s.tags[start:end]
        if label == "PP" and tags not in (["IN"], ["TO"]):
            raise ValueError(f"PP chunk with tags {tags} in {s.words}")
        if label == "NP" and any(t.startswith(("VB", "MD", "IN")) for t in tags):
            raise ValueError(f"NP chunk with tags {tags} in {s.words}")
        if label == "VP" and not any(t.startswith(("VB", "MD")) for t in tags):
            raise ValueError(f"VP chunk without a verb: {tags} in {s.words}")
    for word in s.words:
        if not word or any(c.isspace() for c in word):
            raise ValueError(f"bad word {word!r}")


def generate(seed: int, n_sentences: int) -> Iterator[List[Sentence]]:
    """Stories (lists of sentences) until `n_sentences` distinct sentences are produced."""
    grammar = Grammar(random.Random(seed))
    seen: Set[Tuple[str, ...]] = set()
    produced = 0
    while produced < n_sentences:
        story = []
        for sentence in grammar.story():
            key = tuple(sentence.words)
            if key in seen or produced + len(story) >= n_sentences:
                continue
            seen.add(key)
            check(sentence)
            story.append(sentence)
        produced += len(story)
        if story:
            yield story


def split(seed: int, n_train: int, n_dev: int) -> Tuple[List[List[Sentence]], List[List[Sentence]]]:
    """Train and dev stories, with no sentence in both."""
    train: List[List[Sentence]] = []
    dev: List[List[Sentence]] = []
    count = 0
    for story in generate(seed, n_train + n_dev):
        if count < n_train:
            train.append(story[: n_train - count])
            rest = story[n_train - count :]
            if rest:
                dev.append(rest)
        else:
            dev.append(story)
        count += len(story)
    return train, dev


def write(stories: List[List[Sentence]], output_dir: Path, name: str) -> None:
    """Write one split in the three converter formats."""
    sentences = [s for story in stories for s in story]
    paths = {
        "pos": output_dir / "pos" / f"{name}.tsv",
        "chunk": output_dir / "chunk" / f"{name}.txt",
        "ner": output_dir / "ner" / f"{name}.conll",
    }
    for path in paths.values():
        path.parent.mkdir(parents=True, exist_ok=True)
    with paths["pos"].open("w", encoding="utf8") as f:
        for s in sentences:
            f.writelines(f"{x}\t{t}\n" for x, t in zip(s.words, s.tags))
            f.write("\n")
    with paths["chunk"].open("w", encoding="utf8") as f:
        for s in sentences:
            f.writelines(f"{x} {t} {c}\n" for x, t, c in zip(s.words, s.tags, s.chunks))
            f.write("\n")
    with paths["ner"].open("w", encoding="utf8") as f:
        for story in stories:
            f.write("-DOCSTART- -X- -X- O\n\n")
            for s in story:
                rows = zip(s.words, s.tags, iob2_to_iob1(s.chunks), iob2_to_iob1(s.ents))
                f.writelines(f"{x} {t} {c} {e}\n" for x, t, c, e in rows)
                f.write("\n")
    n_words = sum(len(s.words) for s in sentences)
    print(
        f"✔ {name}: {len(sentences)} sentences, {n_words} words, {len(stories)} stories "
        f"-> {', '.join(str(p) for p in paths.values())}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("output_dir", type=Path)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--n-train", type=int, default=800)
    parser.add_argument("--n-dev", type=int, default=200)
    parser.add_argument("--n-srl-train", type=int, default=500)
    parser.add_argument("--n-srl-dev", type=int, default=100)
    args = parser.parse_args()
    train, dev = split(args.seed, args.n_train, args.n_dev)
    write(train, args.output_dir, "train")
    write(dev, args.output_dir, "dev")
    srl_train, srl_dev = generate_srl(args.seed, args.n_srl_train, args.n_srl_dev)
    write_srl(srl_train, args.output_dir, "train")
    write_srl(srl_dev, args.output_dir, "dev")


if __name__ == "__main__":
    main()
