"""`import-vectors`: a word2vec/GloVe text file to a SENNA-keyed vectors pipeline."""

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
