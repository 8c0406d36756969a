"""The open-data converters: propbank-ewt's CoNLL-2005-style verbal view, Universal NER's
IOB2, GUM's open genres and the Broad Twitter Corpus, read into Docs, and malformed lines
named in a ValueError."""

import pytest
from spacy.lang.en import English
from spacy.vocab import Vocab

from spacy_senna.corpora.converters import CONVERTERS, SENT_ID_KEY

# made-up sentences in each format
PROPBANK = (
    "# sent_id = doc-0001\n"
    "# text = Ann fed the cat.\n"
    "1\tAnn\tNNP\tB-NP\t-\t(A0*)\n"
    "2\tfed\tVBD\tB-VP\tfeed\t(V*)\n"
    "3\tthe\tDT\tB-NP\t-\t(A1*\n"
    "4\tcat\tNN\tI-NP\t-\t*)\n"
    "5\t.\t.\tO\t-\t*\n"
    "\n"
    "# sent_id = doc-0002\n"
    "1\tThey\tPRP\tB-NP\t-\t(A0*)\n"
    "2\tflip\tVB\tB-VP\t-\t(V*)\n"
    "3\t-\tHYPH\tI-VP\t-\t*\n"
    "4\tflopped\tVBN\tI-VP\tflipflop\t(C-V*)\n"
    "\n"
    "# sent_id = doc-0003\n"
    "1\tHi\tUH\tB-INTJ\t-\n"
    "\n"
)
UNER = (
    "# newdoc id = doc\n"
    "# sent_id = doc-0001\n"
    "1\tAnn\tB-PER\n"
    "2\tLee\tI-PER\n"
    "3\tvisited\tO\n"
    "4\tFrench\tB-OTH\n"
    "5\tParis\tB-LOC\n"
    "\n"
    "# sent_id = doc-0002\n"
    "1\tAcme\tB-ORG\t-\tann1\n"
    "2\tsold\tO\t-\tann1\n"
    "3\tBig\tB-OTH\t-\tann1\n"
    "4\tCo\tI-ORG\t-\tann1\n"
)


def _read(name, path):
    return list(CONVERTERS[name](path, Vocab()))


@pytest.mark.parametrize("gz", [False, True])
def test_propbank_ewt_tags_chunks_frames(tmp_path, write_input, gz):
    docs = _read("propbank-ewt", write_input(tmp_path / "pb.conll05-verbal", PROPBANK, gz))
    assert [d.user_data[SENT_ID_KEY] for d in docs] == ["doc-0001", "doc-0002", "doc-0003"]
    first = docs[0]
    assert [t.tag_ for t in first] == ["NNP", "VBD", "DT", "NN", "."]
    assert [(s.text, s.label_) for s in first.spans["chunks"]] == [
        ("Ann", "NP"),
        ("fed", "VP"),
        ("the cat", "NP"),
    ]
    assert [(s.text, s.label_) for s in first.spans["srl_predicates"]] == [("fed", "feed")]
    assert [(s.text, s.label_) for s in first.spans["srl:1"]] == [
        ("Ann", "A0"),
        ("fed", "V"),
        ("the cat", "A1"),
    ]
    # a split verb marks its predicate inside the C-V part
    assert [(s.text, s.label_) for s in docs[1].spans["srl:3"]] == [
        ("They", "A0"),
        ("flip", "V"),
        ("flopped", "C-V"),
    ]
    assert len(docs[2].spans["srl_predicates"]) == 0


@pytest.mark.parametrize(
    "line, message",
    [
        ("2\tfed\tVBD\tB-VP\tfeed\n", "expected the same number"),
        ("2\tfed\tVBD\tX-VP\tfeed\t(V*)\n", "expected an IOB CHUNK tag"),
        ("7\tfed\tVBD\tB-VP\tfeed\t(V*)\n", "expected token ID 2"),
        ("2\tfed\tVBD\tB-VP\tfeed\t*\n", r"is not inside the V \(or C-V\) argument"),
    ],
)
def test_propbank_ewt_names_the_bad_line(tmp_path, write_input, line, message):
    text = "1\tAnn\tNNP\tB-NP\t-\t(A0*)\n" + line + "3\tcats\tNNS\tB-NP\t-\t(A1*)\n"
    path = write_input(tmp_path / "bad.conll05-verbal", text)
    with pytest.raises(ValueError, match=message) as error:
        _read("propbank-ewt", path)
    assert str(path) in str(error.value)


def test_uner_keeps_per_loc_org_and_drops_oth(tmp_path, write_input):
    docs = _read("uner", write_input(tmp_path / "uner.iob2", UNER))
    assert [d.user_data[SENT_ID_KEY] for d in docs] == ["doc-0001", "doc-0002"]
    assert [(e.text, e.label_) for e in docs[0].ents] == [("Ann Lee", "PER"), ("Paris", "LOC")]
    # an I- tag after a dropped OTH starts its own entity
    assert [(e.text, e.label_) for e in docs[1].ents] == [("Acme", "ORG"), ("Co", "ORG")]


@pytest.mark.parametrize(
    "name, text, message",
    [
        ("uner", "1\tAnn\tPERSON\n", r"input:1: expected an IOB NER tag"),
        ("uner", "1\tAnn\n", r"input:1: expected at least 3"),
        ("uner", "# sent_id = x\n\n", "contains no sentences"),
        ("btc", "Ann\tB-PER\n\tB-PER\n", r"input:2: expected a non-empty TOKEN column"),
        ("btc", "Ann\tPERSON\n", r"input:1: expected an IOB NER tag"),
        ("btc", "Ann\tB-PER\tx\n", r"input:1: expected 2 tab-separated columns"),
    ],
)
def test_ner_formats_name_the_bad_line(tmp_path, write_input, name, text, message):
    path = write_input(tmp_path / "input", text)
    with pytest.raises(ValueError, match=message) as error:
        _read(name, path)
    assert str(path) in str(error.value)


GUM = (
    "# sent_id = GUM_news_a-1\n"
    "# genre = news\n"
    "1\tAnn\tNNP\tB-PER\tB-NP\n"
    "2\tsaw\tVBD\tO\tB-VP\n"
    "3\tthe\tDT\tB-MISC\tB-NP\n"
    "4\tOlympics\tNNPS\tI-MISC\tI-NP\n"
    "5\tin\tIN\tO\tB-PP\n"
    "6\tRome\tNNP\tB-LOC\tB-NP\n"
)


def test_gum_open_tags_entities_chunks(tmp_path, write_input):
    (doc,) = _read("gum-open", write_input(tmp_path / "gum.conll", GUM))
    assert doc.user_data[SENT_ID_KEY] == "GUM_news_a-1"
    assert [t.tag_ for t in doc] == ["NNP", "VBD", "DT", "NNPS", "IN", "NNP"]
    assert [(e.text, e.label_) for e in doc.ents] == [("Ann", "PER"), ("Rome", "LOC")]
    assert [s.label_ for s in doc.spans["chunks"]] == ["NP", "VP", "NP", "PP", "NP"]
    bad = write_input(tmp_path / "bad.conll", "1\tAnn\tNNP\tB-PER\n")
    with pytest.raises(ValueError, match=r"bad.conll:1: expected 5 tab-separated columns"):
        _read("gum-open", bad)


# two made-up tweets in the Broad Twitter Corpus' layout (the empty token is on line 10)
BTC = (
    "#\tO\nAnn\tB-PER\nLee\tI-PER\nin\tO\n#Leeds\tB-LOC\n@\tB-PER\nbob\tB-PER\n\n"
    "Acme\tB-ORG\n\tO\nrocks\tO\n@\tO\nacme_uk\tB-ORG\n@\tO\n:\tO\n\n"
)


def test_btc_reads_tweets_in_the_tokens_spacy_makes_of_them(tmp_path, write_input):
    """A mention is one token (BTC's '@' and name, both tagged B-X: one entity); '#' comes
    off a hashtag, the entity on its word; a lone '#' or '@' stays a token."""
    path = write_input(tmp_path / "btc.conll", BTC)
    with pytest.warns(UserWarning, match=r"btc.conll: left out 1 rows with an empty token.*10"):
        docs = _read("btc", path)
    assert [[t.text for t in d] for d in docs] == [
        ["#", "Ann", "Lee", "in", "#", "Leeds", "@bob"],
        ["Acme", "rocks", "@acme_uk", "@", ":"],
    ]
    assert [(e.text, e.label_) for e in docs[0].ents] == [
        ("Ann Lee", "PER"),
        ("Leeds", "LOC"),
        ("@bob", "PER"),
    ]
    assert [(e.text, e.label_) for e in docs[1].ents] == [("Acme", "ORG"), ("@acme_uk", "ORG")]
    nlp = English()
    for doc in docs:  # the tokens spaCy's tokenizer makes of the tweet's text
        assert [t.text for t in nlp(doc.text)] == [t.text for t in doc]
