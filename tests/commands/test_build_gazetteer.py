"""`build-gazetteer`: entity lists from the entities of a corpus."""

from spacy.lang.en import English

from spacy_senna.commands.build_gazetteer import build_gazetteer
from spacy_senna.gazetteer import read_gazetteer


def test_build_gazetteer_from_corpus(tmp_path, span_examples):
    from spacy.tokens import DocBin

    nlp = English()
    docs = [ex.reference for ex in span_examples(nlp)]
    DocBin(docs=docs).to_disk(tmp_path / "train.spacy")
    n = build_gazetteer(tmp_path / "train.spacy", tmp_path / "gaz.lst")
    assert n == 4
    assert read_gazetteer(tmp_path / "gaz.lst", ["LOC", "PER"])["PER"] == {"john smith", "mary"}
