"""`split-dev`: the last documents of a corpus as dev, bad fractions, and outputs replaced
only by complete files."""

import pytest
from spacy.tokens import Doc, DocBin
from spacy.vocab import Vocab

from spacy_senna.cli import main


def test_split_dev_takes_the_last_documents(tmp_path):
    vocab = Vocab()
    docs = [Doc(vocab, words=[f"w{i}", "x"]) for i in range(20)]
    DocBin(docs=docs).to_disk(tmp_path / "train.spacy")
    main(["split-dev", str(tmp_path / "train.spacy"), str(tmp_path / "out"), "--fraction", "0.2"])
    train = list(DocBin().from_disk(tmp_path / "out" / "train.spacy").get_docs(vocab))
    dev = list(DocBin().from_disk(tmp_path / "out" / "dev.spacy").get_docs(vocab))
    assert [d[0].text for d in train] == [f"w{i}" for i in range(16)]
    assert [d[0].text for d in dev] == [f"w{i}" for i in range(16, 20)]


def test_split_dev_rejects_bad_fraction(tmp_path, capsys):
    DocBin(docs=[Doc(Vocab(), words=["a"])]).to_disk(tmp_path / "t.spacy")
    with pytest.raises(SystemExit):
        main(["split-dev", str(tmp_path / "t.spacy"), str(tmp_path / "o"), "--fraction", "1.5"])
    assert "--fraction must be between 0 and 1" in capsys.readouterr().err


def test_split_dev_outputs(
    capsys, monkeypatch, tmp_path, corpus, afile, fail_line, disk_full_after_half
):
    assert fail_line(capsys, "split-dev", corpus, afile) == (
        f"✘ {afile}: exists and is not a directory"
    )
    out = tmp_path / "out"
    main(["split-dev", str(corpus), str(out), "--fraction", "0.5"])
    old = {p.name: p.read_bytes() for p in out.iterdir()}
    disk_full_after_half(monkeypatch, DocBin, "to_disk")
    line = fail_line(capsys, "split-dev", corpus, out, "--fraction", "0.2")
    assert line == f"✘ {out / 'train.spacy'}: no space left on device"
    assert {p.name: p.read_bytes() for p in out.iterdir()} == old  # both old files intact
