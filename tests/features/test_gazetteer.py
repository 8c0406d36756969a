"""Gazetteers: reading lists (bad lines, malformed and empty files), longest multi-word
matches, and dropping matches in training."""

import gzip
from pathlib import Path

import pytest
from spacy.lang.en import English

from spacy_senna.features.gazetteer import GazetteerFeature, GazetteerMatcher, read_gazetteer


def test_gazetteer_longest_multiword_match(tmp_path):
    path = tmp_path / "gaz.lst.gz"
    with gzip.open(path, "wt") as f:
        f.write("LOC new york\nLOC new york city\nORG new york times\nPER york\n")
    entries = read_gazetteer(path, ["LOC", "ORG", "PER"])
    nlp = English()
    matcher = GazetteerMatcher(entries, ["LOC", "ORG", "PER"])
    flags = matcher.flags(nlp.make_doc("I read the New York Times in new YORK city"))
    assert flags[:, 0].tolist() == [0, 0, 0, 1, 1, 0, 0, 1, 1, 1]  # LOC
    assert flags[:, 1].tolist() == [0, 0, 0, 1, 1, 1, 0, 0, 0, 0]  # ORG
    assert flags[:, 2].tolist() == [0, 0, 0, 0, 1, 0, 0, 0, 1, 0]  # PER: york


def test_gazetteer_matcher_leaves_the_vocab_alone():
    """Names the pipeline never saw are matched without becoming lexemes of its vocab
    (a list of 100,000 names would otherwise be saved with the pipeline's strings)."""
    nlp = English()
    doc = nlp.make_doc("Flights from Zzyzx Springs to Qwertyville Upper")
    words_before = len(nlp.vocab)
    entries = {"LOC": {"zzyzx springs", "qwertyville upper", "qwertyville upper east side"}}
    matcher = GazetteerMatcher(entries, ["LOC"])
    assert len(nlp.vocab) == words_before
    assert matcher.matches(doc) == [(2, 4, 0), (5, 7, 0)]  # the 4-word entry runs past the end


def test_gazetteer_drop_matches_only_in_training():
    nlp = English()
    feature = GazetteerFeature(None, ["LOC"], width=5, drop_matches=0.5)
    feature.set_entries({"LOC": {"paris", "new york"}})
    doc = nlp.make_doc("Paris and New York and Paris and New York and Paris " * 20)
    yes = feature.lexicons[0].get("YES")
    full = feature.extract(doc)
    assert (feature.extract(doc) == full).all()
    assert (full == yes).sum() == 20 * 7  # 3 x Paris + 2 x New York per repeat
    noisy = feature.extract(doc, train=True)
    kept = int((noisy == yes).sum())
    assert 0.25 * 140 < kept < 0.75 * 140
    assert ((noisy == yes) <= (full == yes)).all()
    # a multi-word match is dropped or kept as a whole
    starts = [i for i, t in enumerate(doc) if t.text == "New"]
    assert all(noisy[i, 0] == noisy[i + 1, 0] for i in starts)
    with pytest.raises(ValueError, match="drop_matches"):
        GazetteerFeature(None, ["LOC"], width=5, drop_matches=1.0)


def test_gazetteer_bad_files(tmp_path):
    bad = tmp_path / "bad.lst"
    bad.write_text("LOC paris\nCITY rome\n")
    with pytest.warns(UserWarning, match=r"bad.lst: skipped 1 line.*line 2 \(CITY\)"):
        assert read_gazetteer(bad, ["LOC"]) == {"LOC": {"paris"}}
    malformed = tmp_path / "malformed.lst"
    malformed.write_text("LOC paris\nPER\n")
    with pytest.raises(ValueError, match=r"malformed.lst:2: expected 'TYPE word"):
        read_gazetteer(malformed, ["LOC", "PER"])
    empty = tmp_path / "empty.lst"
    empty.write_text("\n")
    with pytest.raises(ValueError, match="no entries"):
        read_gazetteer(empty, ["LOC"])


def test_a_missing_gazetteer_names_the_file_the_folder_and_the_fix(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(FileNotFoundError) as missing:
        read_gazetteer(Path("corpus/gazetteer/train.lst"), ["LOC"])
    message = str(missing.value)
    assert "corpus/gazetteer/train.lst" in message and str(tmp_path) in message
    assert "gazetteer.path" in message and "build-gazetteer" in message
