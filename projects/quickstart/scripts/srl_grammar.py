"""The SRL grammar: one-predicate clauses whose PropBank roles follow from their template."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Optional, Sequence

from lexicon import (
    BUSINESS_NOUNS,
    MEETING_VERBS,
    MODALS,
    MOVEMENT_VERBS,
    POLICY_NOUNS,
    TRANSITIVE_VERBS,
    WINNING_VERBS,
    Verb,
)
from news_grammar import Grammar
from news_parts import BE, Part, Phrase, w

from spacy_senna.labels.tags import Chunk

Role = tuple[Optional[str], list[Part]]  # (PropBank role or None, tokens)


@dataclass
class SrlSentence:
    """One sentence with one predicate: words, PTB tags and its argument frame."""

    words: list[str]
    tags: list[str]
    predicate: int
    lemma: str
    arguments: list[Chunk]  # (role, start, end), V included


def _parts(phrases: Sequence[Phrase]) -> list[Part]:
    return [part for _, parts in phrases for part in parts]


class SrlGrammar(Grammar):
    """Clauses with one predicate whose roles follow from the template (PropBank style)."""

    def finite(self, verb: Verb, plural: bool) -> list[Role]:
        """V in the past or present, or a modal (AM-MOD) + base form."""
        r = self.rng.random()
        if r < 0.5:
            return [("V", [w(verb.past, "VBD")])]
        if r < 0.75:
            return [("V", [w(verb.base, "VBP")] if plural else [w(verb.s3, "VBZ")])]
        return [("AM-MOD", [w(self.pick(MODALS), "MD")]), ("V", [w(verb.base, "VB")])]

    def modifiers(self, place: float, time: float) -> list[Role]:
        roles: list[Role] = []
        if self.p(place):
            roles.append(("AM-LOC", [w(self.pick(["in", "near"]), "IN")] + self.place()))
        if self.p(time):
            roles.append(("AM-TMP", _parts(self.time())))
        return roles

    def srl_clause(self) -> tuple[str, list[Role]]:
        """(predicate lemma, roles in order)."""
        r = self.rng.random()
        if r < 0.3:  # `Brenford Holdings bought a small bank in Lyon last week`
            subject, verb = self.business_subject(), self.pick(TRANSITIVE_VERBS)
            roles = [("A0", _parts(subject.phrases))] + self.finite(verb, subject.plural)
            roles.append(("A1", _parts(self.business_object().phrases)))
            return verb.base, roles + self.modifiers(0.3, 0.4)
        if r < 0.5:  # `Mr. Tanaka met Anna Silva in Oslo on Monday`
            verb = self.pick(MEETING_VERBS)
            subject = self.titled_person() if self.p(0.5) else self.person()
            obj = self.place() if verb.base == "visit" else self.person()
            roles = [("A0", subject)] + self.finite(verb, False) + [("A1", obj)]
            return verb.base, roles + self.modifiers(0.3 if verb.base != "visit" else 0, 0.4)
        if r < 0.7:  # `The deal was approved by the government yesterday`
            thing, verb = self.common_np(BUSINESS_NOUNS + POLICY_NOUNS), self.pick(TRANSITIVE_VERBS)
            aux = BE[(self.pick(["present", "past"]), thing.plural)]
            tag = "VBD" if aux in ("was", "were") else ("VBP" if thing.plural else "VBZ")
            agent = self.org() if self.p(0.6) else self.titled_person()
            roles = [("A1", _parts(thing.phrases)), (None, [w(aux, tag)])]
            roles += [("V", [w(verb.pp, "VBN")]), ("A0", [w("by", "IN")] + agent)]
            return verb.base, roles + self.modifiers(0, 0.4)
        if r < 0.85:  # `Shares of Pacific Motors rose 4 percent in March`
            verb = self.pick(MOVEMENT_VERBS)
            subject = self.possessive(self.org(), [("profit", "profits"), ("sale", "sales")])
            roles = [("A1", _parts(subject.phrases)), ("V", [w(verb.past, "VBD")])]
            roles.append(("A2", _parts(self.percent())))
            return verb.base, roles + self.modifiers(0, 0.5)
        verb = self.pick(WINNING_VERBS)  # `England beat Poland in the final`
        roles = [("A0", self.team()), ("V", [w(verb.past, "VBD")]), ("A1", self.team())]
        if self.p(0.4):
            roles.append(("AM-LOC", [w("in", "IN")] + self.event()))
        return verb.base, roles + self.modifiers(0, 0.3)

    def srl_sentence(self) -> SrlSentence:
        lemma, roles = self.srl_clause()
        words: list[str] = []
        tags: list[str] = []
        arguments: list[Chunk] = []
        for role, parts in roles + [(None, [w(".", ".")])]:
            if role is not None:
                arguments.append((role, len(words), len(words) + len(parts)))
            words += [x for x, _, _ in parts]
            tags += [t for _, t, _ in parts]
        words[0] = words[0][0].upper() + words[0][1:]
        predicate = next(start for role, start, _ in arguments if role == "V")
        return SrlSentence(words, tags, predicate, lemma, arguments)


def generate_srl(seed: int, n_train: int, n_dev: int) -> tuple[list[SrlSentence], ...]:
    """Distinct SRL sentences from their own random stream: (train, dev)."""
    grammar = SrlGrammar(random.Random(f"srl-{seed}"))
    seen: set[tuple[str, ...]] = set()
    out: list[SrlSentence] = []
    while len(out) < n_train + n_dev:
        sentence = grammar.srl_sentence()
        if tuple(sentence.words) not in seen:
            seen.add(tuple(sentence.words))
            out.append(sentence)
    return out[:n_train], out[n_train:]
