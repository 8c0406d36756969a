"""Small CLI commands: split-dev and the thread setting."""

import pytest
import torch
from spacy.tokens import Doc, DocBin
from spacy.vocab import Vocab

from spacy_senna.cli import main
from spacy_senna.threads import torch_threads


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


def test_components_thread_setting_is_restored(monkeypatch):
    before = torch.get_num_threads()
    torch.set_num_threads(2)  # differs from the components' 1, so the restore path runs
    try:
        monkeypatch.setenv("SPACY_SENNA_THREADS", "1")
        with torch_threads():
            assert torch.get_num_threads() == 1
        assert torch.get_num_threads() == 2
    finally:
        torch.set_num_threads(before)
    monkeypatch.setenv("SPACY_SENNA_THREADS", "zero")
    with pytest.raises(ValueError, match="SPACY_SENNA_THREADS"):
        with torch_threads():
            pass
