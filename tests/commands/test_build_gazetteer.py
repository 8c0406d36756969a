"""`build-gazetteer`: entity lists from the entities of a corpus; outputs replaced only by
complete files."""

import errno
import os

from spacy.lang.en import English

from spacy_senna.commands.build_gazetteer import build_gazetteer
from spacy_senna.features.gazetteer import read_gazetteer


def test_build_gazetteer_from_corpus(tmp_path, span_examples):
    from spacy.tokens import DocBin

    nlp = English()
    docs = [ex.reference for ex in span_examples(nlp)]
    DocBin(docs=docs).to_disk(tmp_path / "train.spacy")
    n = build_gazetteer(tmp_path / "train.spacy", tmp_path / "gaz.lst")
    assert n == 4
    assert read_gazetteer(tmp_path / "gaz.lst", ["LOC", "PER"])["PER"] == {"john smith", "mary"}


def test_build_gazetteer_outputs(capsys, monkeypatch, tmp_path, corpus, afile, fail_line):
    assert fail_line(capsys, "build-gazetteer", corpus, tmp_path) == (
        f"✘ {tmp_path}: is a directory, expected a file"
    )
    assert fail_line(capsys, "build-gazetteer", corpus, afile / "g.lst") == (
        f"✘ {afile / 'g.lst'}: cannot create it: {afile} is not a directory"
    )
    output = tmp_path / "g.lst"
    output.write_text("MISC old\n", encoding="utf8")

    def fail(self, data, encoding=None, errors=None, newline=None):
        with self.open("w", encoding=encoding) as stream:
            stream.write(data[:3])
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(type(output), "write_text", fail)
    line = fail_line(capsys, "build-gazetteer", corpus, output)
    assert line == f"✘ {output}: no space left on device"
    assert output.read_text(encoding="utf8") == "MISC old\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["afile", "corpus.spacy", "g.lst"]
