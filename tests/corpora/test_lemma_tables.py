"""Lemma tables learnt from a treebank's lemmas, read by senna_lemmatizer's "treebank" mode:
seen words get their most frequent treebank lemma, unseen words the rewrite of their longest
known suffix, proper nouns keep their case, and the lemmatizer gives the same lemmas one doc
or a batch at a time and after save/load. The sentences were written for these tests."""

import pytest
import spacy
from spacy.tokens import Doc

from spacy_senna.corpora.lemma_tables import learn_lemma_tables, lemma_rule, suffix_lemma

# (word, UPOS, lemma)
GOLD = [
    [("As", "DET", "o"), ("casas", "NOUN", "casa"), ("brancas", "ADJ", "branco"),
     ("cantaremos", "VERB", "cantar"), ("em", "ADP", "em"), ("Lisboa", "PROPN", "Lisboa")],
    [("As", "DET", "o"), ("mesas", "NOUN", "mesa"), ("altas", "ADJ", "alto"),
     ("falaremos", "VERB", "falar"), ("com", "ADP", "com"), ("Maria", "PROPN", "Maria")],
    [("Os", "DET", "o"), ("lápis", "NOUN", "lápis"), ("lápis", "NOUN", "lápis"),
     ("foi", "AUX", "ser"), ("foi", "AUX", "ser"), ("foi", "AUX", "ir"), ("a", "ADP", "a")],
    [("As", "DET", "o"), ("portas", "NOUN", "porta"), ("baixas", "ADJ", "baixo"),
     ("andaremos", "VERB", "andar"), ("PÚBLICO", "PROPN", "Público"), (".", "PUNCT", ".")],
]  # fmt: skip


def gold_docs(vocab):
    docs = []
    for sentence in GOLD:
        words, pos, lemmas = zip(*sentence)
        docs.append(Doc(vocab, words=list(words), pos=list(pos), lemmas=list(lemmas)))
    return docs


@pytest.fixture
def nlp():
    nlp = spacy.blank("pt")
    lemmatizer = nlp.add_pipe("senna_lemmatizer", config={"mode": "treebank"})
    lemmatizer.initialize(lookups=learn_lemma_tables(gold_docs(nlp.vocab)))
    return nlp


def lemmas(nlp, words, pos):
    doc = Doc(nlp.vocab, words=words, pos=pos)
    return [token.lemma_ for token in nlp.get_pipe("senna_lemmatizer")(doc)]


def test_lemma_rule_is_the_rewrite_after_the_common_prefix():
    assert lemma_rule("casas", "casa") == ("s", "")
    assert lemma_rule("cantaremos", "cantar") == ("emos", "")
    assert lemma_rule("foi", "ser") == ("foi", "ser")
    assert suffix_lemma("gatos", {"": ["", ""], "s": ["s", ""]}) == "gato"


def test_seen_words_get_their_most_frequent_treebank_lemma(nlp):
    words = ["Casas", "lápis", "foi", "a", "As", "brancas"]
    pos = ["NOUN", "NOUN", "AUX", "ADP", "DET", "ADJ"]
    assert lemmas(nlp, words, pos) == ["casa", "lápis", "ser", "a", "o", "branco"]


def test_unseen_words_take_the_rewrite_of_their_longest_known_suffix(nlp):
    words = ["janelas", "beberemos", "longas", "sobre"]
    pos = ["NOUN", "VERB", "ADJ", "ADP"]
    assert lemmas(nlp, words, pos) == ["janela", "beber", "longo", "sobre"]


def test_proper_nouns_keep_their_case_unless_the_treebank_says_otherwise(nlp):
    words = ["Coimbra", "PÚBLICO", "Maria", "EUA"]
    pos = ["PROPN", "PROPN", "PROPN", "PROPN"]
    assert lemmas(nlp, words, pos) == ["Coimbra", "Público", "Maria", "EUA"]


def test_a_part_of_speech_never_seen_is_lowercased(nlp):
    assert lemmas(nlp, ["Olá", "!"], ["INTJ", "PUNCT"]) == ["olá", "!"]


def test_batches_and_a_saved_pipeline_give_the_same_lemmas(nlp, tmp_path):
    words = "As janelas altas cantaremos em Lisboa foi PÚBLICO".split()
    pos = "DET NOUN ADJ VERB ADP PROPN AUX PROPN".split()
    docs = [Doc(nlp.vocab, words=words[i:], pos=pos[i:]) for i in range(4)]
    one_by_one = [[t.lemma_ for t in lemmas_doc] for lemmas_doc in map(nlp, docs)]
    docs = [Doc(nlp.vocab, words=words[i:], pos=pos[i:]) for i in range(4)]
    piped = [[t.lemma_ for t in doc] for doc in nlp.pipe(docs)]
    assert piped == one_by_one
    nlp.to_disk(tmp_path / "pipeline")
    loaded = spacy.load(tmp_path / "pipeline")
    docs = [Doc(loaded.vocab, words=words[i:], pos=pos[i:]) for i in range(4)]
    assert [[t.lemma_ for t in doc] for doc in loaded.pipe(docs)] == one_by_one


def test_docs_without_pos_or_lemmas_are_refused():
    nlp = spacy.blank("pt")
    with pytest.raises(ValueError, match="nothing to learn from"):
        learn_lemma_tables([nlp("casas brancas")])


def test_treebank_mode_without_its_tables_says_which_are_missing():
    nlp = spacy.blank("pt")
    nlp.add_pipe("senna_lemmatizer", config={"mode": "treebank"})
    with pytest.raises(ValueError, match="lemma_suffixes"):
        nlp(Doc(nlp.vocab, words=["casas"], pos=["NOUN"]))
    with pytest.raises(ValueError, match="lemma_suffixes"):
        nlp.initialize()
