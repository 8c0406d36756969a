"""The demo corpus's vocabulary, read from the word lists in vocabulary/.

Each list is a file `vocabulary/NAME.txt` with one entry per line, its fields separated by
spaces; blank lines and `#` lines are skipped (format: vocabulary/README.md).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Optional

VOCABULARY = Path(__file__).resolve().parent / "vocabulary"

Tagged = tuple[list[str], list[str]]  # (words, Penn Treebank tags)
NounForms = tuple[str, str]  # (singular, plural)


@dataclass(frozen=True)
class Verb:
    """The five PTB verb forms: VB/VBP, VBZ, VBD, VBN, VBG."""

    base: str
    s3: str
    past: str
    pp: str
    ing: str


def _lines(name: str) -> list[tuple[str, list[str]]]:
    """(`path:line`, fields) of each entry of vocabulary/NAME.txt."""
    path = VOCABULARY / f"{name}.txt"
    out = []
    for number, line in enumerate(path.read_text(encoding="utf8").splitlines(), 1):
        fields = line.split()
        if fields and not fields[0].startswith("#"):
            out.append((f"{path}:{number}", fields))
    if not out:
        raise ValueError(f"{path}: the list is empty")
    return out


def entries(name: str, n_fields: Optional[int] = None) -> list[list[str]]:
    """The fields of each entry of vocabulary/NAME.txt; exactly `n_fields` each if given."""
    out = []
    for where, fields in _lines(name):
        if n_fields is not None and len(fields) != n_fields:
            raise ValueError(
                f"{where}: expected {n_fields} space-separated fields, found {len(fields)}: "
                f"{' '.join(fields)!r}"
            )
        out.append(fields)
    return out


def words(name: str) -> list[str]:
    """A list of single words."""
    return [fields[0] for fields in entries(name, 1)]


def phrases(name: str) -> list[list[str]]:
    """A list of multi-word entries, each as its words."""
    return entries(name)


def tagged(name: str) -> list[Tagged]:
    """A list of `WORD/TAG WORD/TAG ...` entries, each as (words, tags)."""
    out = []
    for where, fields in _lines(name):
        pairs = [field.rpartition("/") for field in fields]
        missing = [field for field, (word, _, tag) in zip(fields, pairs) if not word or not tag]
        if missing:
            raise ValueError(f"{where}: expected WORD/TAG, found {missing[0]!r}")
        out.append(([word for word, _, _ in pairs], [tag for _, _, tag in pairs]))
    return out


def nouns(name: str) -> list[NounForms]:
    """A list of `SINGULAR PLURAL` entries."""
    return [(singular, plural) for singular, plural in entries(name, 2)]


def verbs(name: str) -> list[Verb]:
    """A list of `BASE -S PAST PARTICIPLE -ING` entries."""
    return [Verb(*fields) for fields in entries(name, 5)]


def phrasal_verbs(name: str) -> list[tuple[Verb, str]]:
    """A list of the five verb forms followed by a particle, each as (verb, particle)."""
    return [(Verb(*fields[:5]), fields[5]) for fields in entries(name, 6)]


FIRST_NAMES = words("first_names")
LAST_NAMES = words("last_names")
SURNAME_ONSETS = words("surname_onsets")
SURNAME_CODAS = words("surname_codas")
TITLES = phrases("titles")
CITIES = phrases("cities")
COUNTRIES = tagged("countries")
NATIONALITIES = words("nationalities")
ORG_PREFIXES = words("org_prefixes")
ORG_SUFFIXES = tagged("org_suffixes")
ORGANISATIONS = tagged("organisations")
TEAM_SUFFIXES = words("team_suffixes")
EVENTS = tagged("events")
SPORTS = words("sports")
DAYS = words("days")
MONTHS = words("months")
MONTH_ABBREVIATIONS = words("month_abbreviations")

BUSINESS_NOUNS = nouns("business_nouns")
PEOPLE_NOUNS = nouns("people_nouns")
POLICY_NOUNS = nouns("policy_nouns")
AGENDA_NOUNS = nouns("agenda_nouns")
MASS_NOUNS = words("mass_nouns")
ADJECTIVES = words("adjectives")
PREDICATIVE_ADJECTIVES = words("predicative_adjectives")
COMPARATIVES = words("comparatives")
SUPERLATIVES = words("superlatives")
PREVERBAL_ADVERBS = words("preverbal_adverbs")
MOVEMENT_ADVERBS = words("movement_adverbs")
INTRO_ADVERBS = words("intro_adverbs")
MODALS = words("modals")
NUMBER_WORDS = words("number_words")
SUBORDINATORS = words("subordinators")

POLICY_VERBS = verbs("policy_verbs")
TRANSITIVE_VERBS = verbs("transitive_verbs") + POLICY_VERBS
TEAM_VERBS = verbs("team_verbs")
MEETING_VERBS = verbs("meeting_verbs") + TEAM_VERBS
MOVEMENT_VERBS = verbs("movement_verbs")
WINNING_VERBS = verbs("winning_verbs")
INTENT_VERBS = verbs("intent_verbs")
PHRASAL_VERBS = phrasal_verbs("phrasal_verbs")
