"""The treebank converters: WSJ-style bracketed trees and propbank-ewt's parse column."""

import gzip

import pytest
from spacy.tokens import DocBin
from spacy.vocab import Vocab

from spacy_senna.cli import main
from spacy_senna.corpora.converters import CONVERTERS
from spacy_senna.corpora.converters.rows import SENT_ID_KEY
from spacy_senna.syntax.constituents import doc_constituents

WSJ = (
    "( (S (NP-SBJ (NNP Ms.) (NNP Haag)) (VP (VBZ plays) (NP (NNP Elianti))) (. .)))\n"
    "( (S (NP-SBJ-1 (-NONE- *)) (VP (VB Go) (PRT (RP away))) (. !)))\n"
    "( (-NONE- *))\n"
)
EWT = (
    "# sent_id = a-1\n"
    "# text = (I left) .\n"
    "1\t(\t-LRB-\t-LRB-\tO\t(TOP(S*\n"
    "2\tI\tPRP\tPRP\tB-NP\t(NP*)\n"
    "3\tleft\tVBD\tVBD\tB-VP\t(VP*)\n"
    "4\t)\t-RRB-\t-RRB-\tO\t*\n"
    "5\t.\t.\t.\tO\t*))\n"
    "\n"
)


def test_ptb_trees_give_words_tags_and_clean_constituents(tmp_path):
    path = tmp_path / "train.mrg.gz"
    path.write_bytes(gzip.compress(WSJ.encode()))
    first, second = list(CONVERTERS["ptb-trees"](path, Vocab()))  # the empty tree is skipped
    assert [t.text for t in first] == ["Ms.", "Haag", "plays", "Elianti", "."]
    assert [t.tag_ for t in first] == ["NNP", "NNP", "VBZ", "NNP", "."]
    assert doc_constituents(first) == [("S", 0, 5), ("NP", 0, 2), ("VP", 2, 4), ("NP", 3, 4)]
    assert doc_constituents(second) == [("S", 0, 3), ("VP", 0, 2), ("PRT", 1, 2)]


def test_ewt_trees_read_the_parse_column_with_bracket_words(tmp_path):
    path = tmp_path / "dev.conll"
    path.write_text(EWT)
    (doc,) = CONVERTERS["ewt-trees"](path, Vocab())
    assert [t.text for t in doc] == ["(", "I", "left", ")", "."]
    assert doc_constituents(doc) == [("S", 0, 5), ("NP", 1, 2), ("VP", 2, 3)]
    assert doc.user_data[SENT_ID_KEY] == "a-1"


def test_ewt_trees_name_the_line_of_a_bad_parse(tmp_path):
    path = tmp_path / "bad.conll"
    path.write_text(EWT.replace("*))", "*)))"))
    with pytest.raises(ValueError, match="bad.conll:3"):
        list(CONVERTERS["ewt-trees"](path, Vocab()))


def test_convert_command_writes_the_trees(tmp_path):
    path = tmp_path / "dev.mrg"
    path.write_text(WSJ)
    main(["convert", str(path), str(tmp_path / "out"), "-c", "ptb-trees"])
    docs = list(DocBin().from_disk(tmp_path / "out" / "dev.mrg.spacy").get_docs(Vocab()))
    assert len(docs) == 2 and ("S", 0, 5) in doc_constituents(docs[0])
