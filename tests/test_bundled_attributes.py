"""en_senna gives the attributes spaCy apps read: `token.pos_` (UPOS), `token.morph` and
`token.lemma_`, from spaCy's attribute_ruler and rule lemmatizer after senna_tagger, with the
lemmatizer's tables stored in the pipeline (no spacy-lookups-data at run time); and
`doc.noun_chunks`, the chunker's NP chunks. The sentences were written for these tests."""

import importlib.abc
import importlib.metadata
import json
import sys

import pytest
import spacy
import spacy.lookups
import spacy.pipeline.lemmatizer

from spacy_senna.annotate.formats import get_format
from spacy_senna.annotate.layers import pipeline_layers
from spacy_senna.annotate.settings import AnnotateSettings
from spacy_senna.annotate.worker import load_for_annotation
from spacy_senna.bundled import bundled_path, load

#: the 17 universal POS tags of Universal Dependencies, and spaCy's SPACE
UPOS = set(
    "ADJ ADP ADV AUX CCONJ DET INTJ NOUN NUM PART PRON PROPN PUNCT SCONJ SYM VERB X SPACE".split()
)
TEXTS = [
    "The cats were running.",
    "She has written two books, and I didn't read them.",
    "Those are better than these old ones :)",
    "Is there anything that he could do before  we left?\n\nNobody knows.",
    "   ",
    "",
]


@pytest.fixture(scope="module")
def nlp():
    return load()


def _attributes(doc):
    return [(t.text, t.tag_, t.pos_, str(t.morph), t.lemma_) for t in doc]


def test_components_follow_the_tagger(nlp):
    names = nlp.pipe_names
    assert names.index("attribute_ruler") == names.index("senna_tagger") + 1
    assert names.index("lemmatizer") == names.index("attribute_ruler") + 1
    assert nlp.get_pipe("lemmatizer").mode == "rule"


def test_pos_and_lemmas_a_reader_can_check(nlp):
    doc = nlp("The cats were running.")
    assert [t.lemma_ for t in doc] == ["the", "cat", "be", "run", "."]
    assert [t.pos_ for t in doc] == ["DET", "NOUN", "AUX", "VERB", "PUNCT"]
    assert doc[1].morph.get("Number") == ["Plur"]
    doc = nlp("She has written two books, and I didn't read them.")
    by_text = {t.text: (t.pos_, t.lemma_) for t in doc}
    assert by_text["She"] == ("PRON", "she")
    assert by_text["has"] == ("AUX", "have")
    assert by_text["written"] == ("VERB", "write")
    assert by_text["two"] == ("NUM", "two")
    assert by_text["books"] == ("NOUN", "book")
    assert by_text["and"] == ("CCONJ", "and")
    assert by_text["I"] == ("PRON", "I")
    assert by_text["did"] == ("AUX", "do")
    assert by_text["n't"] == ("PART", "not")
    assert by_text["them"] == ("PRON", "they")


def test_every_tagger_label_maps_to_a_upos(nlp):
    ruler = nlp.get_pipe("attribute_ruler")
    labels = [*nlp.get_pipe("senna_tagger").labels, "_SP"]
    assert len(labels) > 40
    for tag in labels:
        doc = ruler(spacy.tokens.Doc(nlp.vocab, words=["x"], tags=[tag]))
        assert doc[0].pos_ in UPOS, tag


def test_whitespace_tokens_are_space(nlp):
    doc = nlp("Hello  world.\n\nAgain \t here.")
    spaces = [t for t in doc if t.is_space]
    assert len(spaces) == 3
    assert {t.pos_ for t in spaces} == {"SPACE"}
    assert {t.pos_ for t in doc if not t.is_space} & {"SPACE", ""} == set()


def test_pipe_equals_call(nlp):
    piped = [_attributes(doc) for doc in nlp.pipe(TEXTS, batch_size=2)]
    assert piped == [_attributes(nlp(text)) for text in TEXTS]
    assert all(t.pos_ and t.lemma_ for doc in nlp.pipe(TEXTS) for t in doc)


class _NoLookupsData(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] == "spacy_lookups_data":
            raise ModuleNotFoundError(f"No module named {name!r} (blocked by the test)")
        return None


def test_noun_chunks_without_a_dependency_parse(nlp):
    doc = nlp("The quick brown fox of my neighbour jumped over the lazy dog in New York.")
    assert [(c.text, c.label_) for c in doc.noun_chunks] == [
        ("The quick brown fox", "NP"),
        ("my neighbour", "NP"),
        ("the lazy dog", "NP"),
        ("New York", "NP"),
    ]
    for doc in nlp.pipe(TEXTS):
        nps = [(s.start, s.end) for s in doc.spans["chunks"] if s.label_ == "NP"]
        assert [(c.start, c.end) for c in doc.noun_chunks] == nps
        assert [c for sent in doc.sents for c in sent.noun_chunks] == list(doc.noun_chunks)


def test_loads_and_lemmatizes_without_spacy_lookups_data(monkeypatch):
    """The tables are inside the pipeline: nothing is looked up or downloaded at run time."""

    def no_lookups(*args, **kwargs):
        raise AssertionError("the pipeline asked for spacy-lookups-data's tables")

    monkeypatch.setattr(spacy.lookups, "load_lookups", no_lookups)
    monkeypatch.setattr(spacy.pipeline.lemmatizer, "load_lookups", no_lookups)
    monkeypatch.setattr(sys, "meta_path", [_NoLookupsData(), *sys.meta_path])
    monkeypatch.delitem(sys.modules, "spacy_lookups_data", raising=False)
    nlp = spacy.load(bundled_path())
    tables = set(nlp.get_pipe("lemmatizer").lookups.tables)
    assert {"lemma_rules", "lemma_exc", "lemma_index"} <= tables
    assert [t.lemma_ for t in nlp("The mice were eating cheese.")][:4] == [
        "the",
        "mouse",
        "be",
        "eat",
    ]
    assert "spacy_lookups_data" not in sys.modules


def test_spacy_lookups_data_is_no_requirement(nlp):
    requires = importlib.metadata.requires("spacy-senna") or []
    assert not [r for r in requires if "lookups" in r and "extra ==" not in r]
    assert not [r for r in nlp.meta["requirements"] if "lookups" in r]


def test_wordnet_license_ships_with_the_tables(nlp):
    text = (bundled_path() / "lemmatizer" / "WordNet-LICENSE.txt").read_text(encoding="utf8")
    assert "WordNet 3.0 Copyright 2006 by Princeton University" in text
    assert any("WordNet" in source for source in nlp.meta["sources"])


@pytest.mark.parametrize("name", ["senna", "conll", "jsonl"])
def test_annotate_skips_the_attributes_only_where_its_format_drops_them(nlp, name):
    """SENNA's and CoNLL's columns hold no `pos_` or `lemma_`: annotate leaves out the
    attribute ruler and lemmatizer and writes the same columns; jsonl writes them."""
    loaded = load_for_annotation(str(bundled_path()), AnnotateSettings(format=name), gpu_id=-1)
    skipped = {"attribute_ruler", "lemmatizer"}.isdisjoint(loaded.pipe_names)
    assert skipped == (name != "jsonl")
    text = TEXTS[1]
    outputs = [
        get_format(name)(pipeline_layers(pipeline)).add(pipeline(text)).decode("utf8")
        for pipeline in (loaded, nlp)
    ]
    if name == "jsonl":
        tokens = [json.loads(output)["tokens"] for output in outputs]
        assert tokens[0] == tokens[1]
        assert [(t["pos"], t["lemma"]) for t in tokens[0][:4]] == [
            ("PRON", "she"),
            ("AUX", "have"),
            ("VERB", "write"),
            ("NUM", "two"),
        ]
    else:
        assert outputs[0] == outputs[1]
