"""Chunks (CoNLL-2000-style base phrases) derived from a UD tree, the same way in every
language: only UPOS, heads and deprels are read.

1. Every word starts as its own group. A word joins its head's group when its relation
   (the part before `:`) is one of `ATTACHED` (det, amod, nummod, compound, flat, fixed,
   goeswith, clf; `nmod:poss`; aux only under a VERB or AUX) and the two groups together
   cover a contiguous stretch of words. Pairs are tried nearest first, again until
   nothing changes, so `a esmagadora maioria` grows outward from `maioria`, while a
   word whose head lies across another phrase stays apart.
2. A group's label comes from the UPOS of its root (the word whose head is outside it):
   `CHUNK_LABELS` (NOUN, PROPN, PRON, NUM, SYM, X, DET -> NP; VERB, AUX -> VP; ADJ -> ADJP;
   ADV -> ADVP; ADP -> PP; SCONJ -> SBAR; PART -> PRT; INTJ -> INTJ). PUNCT and CCONJ
   roots are outside every chunk (O), as in CoNLL-2000.
3. Adjacent VP groups merge when the first holds only aux/cop words (`tinha sido`), and
   an adverb between two words of one VP joins it (`tem sempre feito`), as CoNLL-2000's
   VP holds a verb's auxiliaries and the adverbs between them.

Prepositions are their own PP chunk and the noun phrase after them an NP (`[PP de] [NP o
governo]`), as in CoNLL-2000. Case-marking words, punctuation and conjunctions never join
a noun's chunk.
"""

from __future__ import annotations

from collections.abc import Sequence

#: relations (before `:`) whose word joins its head's chunk when contiguous
ATTACHED = frozenset({"det", "amod", "nummod", "compound", "flat", "fixed", "goeswith", "clf"})
#: full relations that join too
ATTACHED_FULL = frozenset({"nmod:poss"})
#: UPOS of a group's root -> chunk label; a root not listed (PUNCT, CCONJ) is outside chunks
CHUNK_LABELS = {
    "NOUN": "NP",
    "PROPN": "NP",
    "PRON": "NP",
    "NUM": "NP",
    "SYM": "NP",
    "X": "NP",
    "DET": "NP",
    "VERB": "VP",
    "AUX": "VP",
    "ADJ": "ADJP",
    "ADV": "ADVP",
    "ADP": "PP",
    "SCONJ": "SBAR",
    "PART": "PRT",
    "INTJ": "INTJ",
}
_VERBAL = ("VERB", "AUX")


def _joins(upos: Sequence[str], heads: Sequence[int], deprels: Sequence[str], i: int) -> bool:
    """Whether word i may join its head's chunk (contiguity is checked by the caller)."""
    head = heads[i]
    if head < 0:
        return False
    rel = deprels[i]
    base = rel.split(":")[0]
    if base == "aux":
        return upos[head] in _VERBAL
    return base in ATTACHED or rel in ATTACHED_FULL


def chunk_spans_from_tree(
    upos: Sequence[str], heads: Sequence[int], deprels: Sequence[str]
) -> list[tuple[str, int, int]]:
    """(label, start, end) chunks of one sentence; heads are 0-based word indices, -1 for
    the root."""
    n = len(upos)
    if not (len(heads) == len(deprels) == n):
        raise ValueError(
            f"upos, heads and deprels must have one entry per word ({n}, {len(heads)}, "
            f"{len(deprels)})"
        )
    group = list(range(n))  # each word's group id: the smallest word index in it
    bounds = {i: (i, i + 1) for i in range(n)}  # group id -> (start, end)

    def merge(a: int, b: int) -> bool:
        ga, gb = group[a], group[b]
        if ga == gb:
            return False
        (sa, ea), (sb, eb) = bounds[ga], bounds[gb]
        if max(sa, sb) > min(ea, eb):  # a gap between the groups
            return False
        start, end = min(sa, sb), max(ea, eb)
        members = [k for k in range(start, end) if group[k] in (ga, gb)]
        if len(members) != end - start:
            return False
        for k in members:
            group[k] = start
        del bounds[ga], bounds[gb]
        bounds[start] = (start, end)
        return True

    pairs = sorted(
        (i for i in range(n) if _joins(upos, heads, deprels, i)),
        key=lambda i: abs(heads[i] - i),
    )
    while any([merge(i, heads[i]) for i in pairs]):
        pass

    def root(g: int) -> int:
        start, end = bounds[g]
        for k in range(start, end):
            if heads[k] < start or heads[k] >= end:
                return k
        return start

    chunks: list[list] = []
    for g in sorted(bounds):
        start, end = bounds[g]
        label = CHUNK_LABELS.get(upos[root(g)])
        auxiliary = all(deprels[k].split(":")[0] in ("aux", "cop") for k in range(start, end))
        if (
            label == "VP"
            and chunks
            and chunks[-1][0] == "VP"
            and chunks[-1][2] == start
            and chunks[-1][3]
        ):
            chunks[-1][2] = end
            chunks[-1][3] = auxiliary
            continue
        if label is not None:
            chunks.append([label, start, end, label == "VP" and auxiliary])
    _adverbs_inside_verb_phrases(chunks, upos)
    return [(label, start, end) for label, start, end, _ in chunks]


def _adverbs_inside_verb_phrases(chunks: list[list], upos: Sequence[str]) -> None:
    """An ADVP of one adverb between an all-auxiliary VP and the VP after it joins them."""
    k = 0
    while k + 2 < len(chunks):
        first, middle, last = chunks[k], chunks[k + 1], chunks[k + 2]
        if (
            first[0] == "VP"
            and first[3]
            and middle[0] == "ADVP"
            and middle[2] - middle[1] == 1
            and last[0] == "VP"
            and first[2] == middle[1]
            and middle[2] == last[1]
        ):
            first[2], first[3] = last[2], last[3]
            del chunks[k + 1 : k + 3]
            continue
        k += 1
