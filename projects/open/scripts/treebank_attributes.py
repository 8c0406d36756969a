"""Add `token.pos_` and `token.lemma_` to a `<lang>_senna` pipeline from its treebank, for
any language (en_senna's English tables are scripts/add_attributes.py):

* an `attribute_ruler` (spacy-senna's `senna_attribute_ruler`) setting POS from the tag:
  each tag senna_tagger predicts -> the UPOS the treebank's training words with that tag
  have most often (the identity when the tags are UPOS);
* a `lemmatizer` (`senna_lemmatizer`, "treebank" mode) with lemma tables learnt from the
  treebank's training lemmas (spacy_senna/corpora/lemma_tables.py).

Both are placed right after senna_tagger.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable

from spacy.language import Language
from spacy.tokens import Doc

from spacy_senna.corpora.lemma_tables import learn_lemma_tables
from spacy_senna.pipeline.whitespace import SPACE_TAG

AFTER = "senna_tagger"
RULER, RULER_FACTORY = "attribute_ruler", "senna_attribute_ruler"
LEMMATIZER, LEMMATIZER_FACTORY = "lemmatizer", "senna_lemmatizer"


def tag_to_pos(docs: Iterable[Doc]) -> dict[str, str]:
    """Each tag of the docs -> the UPOS its words have most often."""
    votes: dict[str, Counter[str]] = defaultdict(Counter)
    for doc in docs:
        for token in doc:
            if token.tag_ and token.pos_:
                votes[token.tag_][token.pos_] += 1
    return {tag: counts.most_common(1)[0][0] for tag, counts in sorted(votes.items())}


def add_treebank_attributes(nlp: Language, treebank: list[Doc]) -> None:
    """Add the attribute_ruler and lemmatizer learnt from `treebank` (gold training Docs
    with tags, UPOS and lemmas) after senna_tagger."""
    labels = nlp.get_pipe(AFTER).labels
    mapping = tag_to_pos(treebank)
    unmapped = sorted(set(labels) - set(mapping))
    if unmapped:
        raise SystemExit(f"✘ the treebank never gives these tags a UPOS: {unmapped}")
    for name in (RULER, LEMMATIZER):
        if name in nlp.pipe_names:
            nlp.remove_pipe(name)
    ruler = nlp.add_pipe(RULER_FACTORY, name=RULER, after=AFTER)
    for tag in labels:
        ruler.add([[{"TAG": tag}]], {"POS": mapping[tag]})
    ruler.add([[{"TAG": SPACE_TAG}]], {"POS": "SPACE"})  # what senna_tagger gives whitespace
    lemmatizer = nlp.add_pipe(
        LEMMATIZER_FACTORY, name=LEMMATIZER, after=RULER, config={"mode": "treebank"}
    )
    lemmatizer.initialize(lookups=learn_lemma_tables(treebank))
