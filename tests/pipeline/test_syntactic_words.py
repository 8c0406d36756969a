"""The syntactic-word tokenizer: the language's spaCy tokenizer, then contractions split as
the treebank splits them, the surface forms kept, and the table saved with the pipeline."""

import pytest
import spacy

from spacy_senna.corpora.converters.contractions import ContractionTable
from spacy_senna.corpora.converters.ud import MULTIWORD_KEY
from spacy_senna.pipeline.syntactic_words import SyntacticWordTokenizer

TABLE = ContractionTable({"do": ["de", "o"], "no": ["em", "o"]}, {"se": "se"})


def pipeline():
    nlp = spacy.blank(
        "pt", config={"nlp": {"tokenizer": {"@tokenizers": "spacy-senna.SyntacticWords.v1"}}}
    )
    assert isinstance(nlp.tokenizer, SyntacticWordTokenizer)
    nlp.tokenizer.table = TABLE
    return nlp


def test_contractions_become_the_treebanks_words():
    nlp = pipeline()
    doc = nlp("O Presidente do clube tornou-se chefe no ano passado.")
    assert [t.text for t in doc] == [
        "O",
        "Presidente",
        "de",
        "o",
        "clube",
        "tornou",
        "se",
        "chefe",
        "em",
        "o",
        "ano",
        "passado",
        ".",
    ]
    assert doc.user_data[MULTIWORD_KEY] == [[2, 4, "do"], [5, 7, "tornou-se"], [8, 10, "no"]]
    assert doc.text == "O Presidente de o clube tornou se chefe em o ano passado."
    plain = nlp("Sem nada a partir.")
    assert [t.text for t in plain] == ["Sem", "nada", "a", "partir", "."]
    assert plain.user_data[MULTIWORD_KEY] == []
    assert [[t.text for t in d] for d in nlp.tokenizer.pipe(["Do Porto", "x"])] == [
        ["De", "o", "Porto"],
        ["x"],
    ]


def test_table_is_saved_with_the_pipeline(tmp_path):
    pipeline().to_disk(tmp_path / "nlp")
    nlp = spacy.load(tmp_path / "nlp")
    assert [t.text for t in nlp("no Porto")] == ["em", "o", "Porto"]
    again = pipeline()
    again.tokenizer.from_bytes(nlp.tokenizer.to_bytes())
    assert again.tokenizer.table.forms == TABLE.forms
    (tmp_path / "nlp" / "tokenizer" / "contractions.json").unlink()
    with pytest.raises(FileNotFoundError, match="contraction table is missing"):
        spacy.load(tmp_path / "nlp")
