"""`import-vectors`: a word2vec/GloVe text file to a SENNA-keyed vectors pipeline; bad
inputs and outputs are one line, and a failed write keeps the old output."""

import pytest
import spacy

from spacy_senna import cli
from spacy_senna.lm.vectors_pipeline import read_vectors


def test_import_vectors_writes_the_pipeline_and_reports_it(tmp_path, capsys):
    text = tmp_path / "vec.txt"
    text.write_text(
        "5 3\nParis 1 0 0 \nparis 2 0 0 \nPS2 0 1 0 \nps3 0 2 0 \nnew york 0 0 1 \n",
        encoding="utf8",
    )
    cli.main(["import-vectors", str(text), str(tmp_path / "vec")])
    assert "3 vectors" in capsys.readouterr().out
    assert read_vectors(tmp_path / "vec")[0] == ["paris", "ps0", "new york"]


@pytest.fixture
def text_vectors(tmp_path):
    path = tmp_path / "vectors.txt"
    path.write_text("the 0.1 0.2\ncat 0.3 0.4\n", encoding="utf8")
    return path


def test_import_vectors_errors(capsys, tmp_path, text_vectors, afile, fail_line):
    missing = tmp_path / "missing.txt"
    assert str(missing) in fail_line(capsys, "import-vectors", missing, tmp_path / "v")
    assert str(tmp_path) in fail_line(capsys, "import-vectors", tmp_path, tmp_path / "v")
    garbled = tmp_path / "garbled.txt"
    garbled.write_text("the 0.1 0.2\ncat 0.3\n", encoding="utf8")
    assert str(garbled) in fail_line(capsys, "import-vectors", garbled, tmp_path / "v")
    assert str(afile) in fail_line(capsys, "import-vectors", text_vectors, afile)
    assert fail_line(capsys, "import-vectors", text_vectors, afile / "v") == (
        f"✘ {afile / 'v'}: cannot create it: {afile} is not a directory"
    )


def test_import_vectors_failing_half_way_keeps_the_old_output(
    capsys, monkeypatch, tmp_path, text_vectors, fail_line, disk_full_after_half
):
    out = tmp_path / "vectors"
    cli.main(["import-vectors", str(text_vectors), str(out)])
    old = {p.relative_to(out): p.read_bytes() for p in out.rglob("*") if p.is_file()}
    disk_full_after_half(monkeypatch, spacy.Language, "to_disk")
    line = fail_line(capsys, "import-vectors", text_vectors, out)
    assert line == f"✘ {out}: no space left on device"
    assert {p.relative_to(out): p.read_bytes() for p in out.rglob("*") if p.is_file()} == old
    assert sorted(p.name for p in tmp_path.iterdir()) == ["vectors", "vectors.txt"]
