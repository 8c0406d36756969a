"""Fixtures of the command tests: a .spacy corpus, corrupt copies of it, a full disk."""

import errno
import os

import pytest
from spacy.tokens import Doc, DocBin, Span
from spacy.vocab import Vocab


@pytest.fixture
def corpus(tmp_path):
    """A .spacy file of 10 Docs, each with a PER entity."""
    vocab = Vocab()
    docs = []
    for i in range(10):
        doc = Doc(vocab, words=["Ann", f"w{i}"])
        doc.ents = [Span(doc, 0, 1, label="PER")]
        docs.append(doc)
    path = tmp_path / "corpus.spacy"
    DocBin(docs=docs).to_disk(path)
    return path


@pytest.fixture(params=["garbage", "truncated"])
def corrupt(request, tmp_path, corpus):
    """`corpus` overwritten with garbage, or cut in half."""
    path = tmp_path / f"{request.param}.spacy"
    data = corpus.read_bytes()
    path.write_bytes(b"garbage\n" if request.param == "garbage" else data[: len(data) // 2])
    return path


def _disk_full_after_half(monkeypatch, cls, method):
    """Make `cls.method(path)` write half of its output, then fail like a full disk."""
    original = getattr(cls, method)

    def half_write(self, path, *args, **kwargs):
        original(self, path, *args, **kwargs)
        files = [p for p in path.rglob("*") if p.is_file()] if path.is_dir() else [path]
        for file in files:
            file.write_bytes(file.read_bytes()[: file.stat().st_size // 2])
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(cls, method, half_write)


@pytest.fixture
def disk_full_after_half():
    """`disk_full_after_half(monkeypatch, cls, method)`: make `cls.method(path)` write half
    of its output, then fail like a full disk."""
    return _disk_full_after_half
