"""Lemma tables learnt from a treebank's lemmas, the same way in every language, and the
lookup that reads them (`senna_lemmatizer`'s "treebank" mode).

Three tables, each keyed by the lowercased UPOS (`pos_`):

* `lemma_exc`: a word seen in the treebank -> its most frequent lemma there, kept only where
  the suffix rules below would give another one (lowercased form; the form as written for a
  part of speech in `lemma_cased`);
* `lemma_suffixes`: a word's last 0 to `MAX_SUFFIX` letters -> the rewrite `[old, new]` most
  of the treebank's words ending so take (`ções` -> `["ões", "ão"]`, `aremos` ->
  `["aremos", "ar"]`), counted over distinct words, kept where it differs from the rewrite of
  the suffix one letter shorter; an unseen word takes the rewrite of its longest suffix in
  the table;
* `lemma_cased`: the parts of speech whose lemma is mostly the word as written, with its
  capitals (PROPN, SYM in Bosque): an unseen word of one is its own lemma.

A part of speech the treebank never lemmatizes gets the lowercased word.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence

from spacy.lookups import Lookups
from spacy.tokens import Doc

#: the longest suffix a rewrite is chosen by
MAX_SUFFIX = 5
#: a suffix is kept when at least this many distinct words show its rewrite
MIN_SUFFIX_WORDS = 2
#: a part of speech is cased when more than this share of its words keep their capitals
CASED_SHARE = 0.5


def lemma_rule(form: str, lemma: str) -> tuple[str, str]:
    """The suffix rewrite `(old, new)` that turns `form` into `lemma`."""
    common = 0
    for a, b in zip(form, lemma):
        if a != b:
            break
        common += 1
    return form[common:], lemma[common:]


def suffix_lemma(form: str, suffixes: Mapping[str, Sequence[str]]) -> str:
    """The lemma of `form` by the rewrite of its longest suffix in `suffixes`."""
    for k in range(min(len(form), MAX_SUFFIX), -1, -1):
        rewrite = suffixes.get(form[len(form) - k :])
        if rewrite is not None:
            old, new = rewrite
            lemma = form[: len(form) - len(old)] + new
            if form.endswith(old) and lemma:
                return lemma
    return form


def treebank_lemma(text: str, pos: str, tables: Lookups) -> str:
    """The lemma of a word `text` with UPOS `pos` (lowercased) from the tables."""
    if pos in tables.get_table("lemma_cased", {}):
        return tables.get_table("lemma_exc", {}).get(pos, {}).get(text, text)
    form = text.lower()
    exceptions = tables.get_table("lemma_exc", {}).get(pos, {})
    if form in exceptions:
        return exceptions[form]
    return suffix_lemma(form, tables.get_table("lemma_suffixes", {}).get(pos, {}))


def _gold_counts(docs: Iterable[Doc]) -> dict[str, Counter[tuple[str, str]]]:
    """lowercased UPOS -> counts of (form as written, lemma) over the docs' words."""
    counts: dict[str, Counter[tuple[str, str]]] = defaultdict(Counter)
    for doc in docs:
        for token in doc:
            if token.pos_ and token.lemma_ and not token.is_space:
                counts[token.pos_.lower()][(token.text, token.lemma_)] += 1
    return counts


def _learn_suffixes(lemmas: Mapping[str, str]) -> dict[str, list[str]]:
    """suffix -> rewrite, from each distinct word's lemma, kept where it differs from the
    rewrite of the suffix one letter shorter."""
    votes: dict[str, Counter[tuple[str, str]]] = defaultdict(Counter)
    for form, lemma in lemmas.items():
        rule = lemma_rule(form, lemma)
        for k in range(len(rule[0]), min(len(form), MAX_SUFFIX) + 1):
            votes[form[len(form) - k :]][rule] += 1
    best = {}
    for suffix, rules in votes.items():
        rule, n = rules.most_common(1)[0]
        if n >= MIN_SUFFIX_WORDS or suffix == "":
            best[suffix] = rule
    kept: dict[str, list[str]] = {}
    for suffix in sorted(best, key=len):
        parent = next(
            (best[suffix[i:]] for i in range(1, len(suffix) + 1) if suffix[i:] in best), None
        )
        if best[suffix] != parent:
            kept[suffix] = list(best[suffix])
    return kept


def learn_lemma_tables(docs: Iterable[Doc]) -> Lookups:
    """`Lookups` with `lemma_exc`, `lemma_suffixes` and `lemma_cased` learnt from the lemmas
    and UPOS (`pos_`) of gold `docs`."""
    counts = _gold_counts(docs)
    if not counts:
        raise ValueError("no token has both a UPOS (pos_) and a lemma: nothing to learn from")
    exc_table: dict[str, dict[str, str]] = {}
    suffix_table: dict[str, dict[str, list[str]]] = {}
    cased: dict[str, bool] = {}
    for pos, pairs in sorted(counts.items()):
        total = sum(pairs.values())
        as_written = sum(n for (text, lemma), n in pairs.items() if lemma == text != text.lower())
        is_cased = pos == "propn" or as_written > CASED_SHARE * total
        by_form: dict[str, Counter[str]] = defaultdict(Counter)
        for (text, lemma), n in pairs.items():
            by_form[text if is_cased else text.lower()][lemma] += n
        lemmas = {form: votes.most_common(1)[0][0] for form, votes in by_form.items()}
        if is_cased:
            cased[pos] = True
            exc_table[pos] = {form: lemma for form, lemma in lemmas.items() if lemma != form}
            continue
        suffixes = _learn_suffixes(lemmas)
        suffix_table[pos] = suffixes
        exc_table[pos] = {
            form: lemma
            for form, lemma in sorted(lemmas.items())
            if suffix_lemma(form, suffixes) != lemma
        }
    lookups = Lookups()
    lookups.add_table("lemma_exc", exc_table)
    lookups.add_table("lemma_suffixes", suffix_table)
    lookups.add_table("lemma_cased", cased)
    return lookups
