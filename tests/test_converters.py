"""The benchmark-format converters: each format read into Docs, and malformed, empty,
binary, undecodable or truncated files named in a ValueError."""

import gzip

import pytest
from spacy.vocab import Vocab

from spacy_senna.converters import CONVERTERS

# small made-up fixtures in each benchmark format (wsj-pos, conll2000 and conll2003 ones are
# the conftest fixtures wsj_pos_text, conll2000_text, conll2003_text)
WSJ_PT0 = "The\tDT\tB-NP\ncat\tNN\tI-NP\nsat\tVBD\tB-VP\n.\t.\tO\n\nIt\tPRP\tB-NP\n"
CONLLU = (
    "# sent_id = 1\n"
    "# text = I don't know.\n"
    "1\tI\tI\tPRON\tPRP\t_\t4\tnsubj\t_\t_\n"
    "2-3\tdon't\t_\t_\t_\t_\t_\t_\t_\t_\n"
    "2\tdo\tdo\tAUX\tVBP\t_\t4\taux\t_\t_\n"
    "3\tn't\tnot\tPART\tRB\t_\t4\tadvmod\t_\t_\n"
    "4\tknow\tknow\tVERB\tVB\t_\t0\troot\t_\tSpaceAfter=No\n"
    "4.1\tknew\tknow\tVERB\tVBD\t_\t_\t_\t0:root\t_\n"
    "5\t.\t.\tPUNCT\t.\t_\t4\tpunct\t_\t_\n"
    "\n"
    "# sent_id = 2\n"
    "1\tEnron\t_\tX\tNNP\t_\t0\troot\t_\t_\n"
    "\n"
)


def _read(name, path):
    return list(CONVERTERS[name](path, Vocab()))


def _check_doc_basics(doc):
    assert [t.whitespace_ for t in doc] == [" "] * (len(doc) - 1) + [""]
    assert len(list(doc.sents)) == 1


@pytest.mark.parametrize("gz", [False, True])
def test_wsj_pos(tmp_path, write_input, wsj_pos_text, gz):
    docs = _read("wsj-pos", write_input(tmp_path / "train.tsv", wsj_pos_text, gz))
    assert [[t.text for t in d] for d in docs] == [["The", "cat", "sat", "."], ["It", "ran"]]
    assert [t.tag_ for t in docs[0]] == ["DT", "NN", "VBD", "."]
    assert docs[0].text == "The cat sat ."
    for doc in docs:
        _check_doc_basics(doc)


def test_gzip_detected_by_magic_bytes(tmp_path, write_input, wsj_pos_text):
    docs = _read("wsj-pos", write_input(tmp_path / "no_suffix", wsj_pos_text, gz=True))
    assert len(docs) == 2


def test_wsj_pt0(tmp_path, write_input):
    docs = _read("wsj-pt0", write_input(tmp_path / "dev.tsv.gz", WSJ_PT0, gz=True))
    assert [(s.label_, s.start, s.end) for s in docs[0].spans["pt0"]] == [
        ("NP", 0, 2),
        ("VP", 2, 3),
    ]
    assert [t.tag_ for t in docs[1]] == ["PRP"]
    assert [s.label_ for s in docs[1].spans["pt0"]] == ["NP"]


def test_conll2000(tmp_path, write_input, conll2000_text):
    docs = _read("conll2000", write_input(tmp_path / "test.txt", conll2000_text))
    chunks = [(s.label_, s.start, s.end) for s in docs[0].spans["chunks"]]
    assert chunks == [("NP", 0, 2), ("VP", 2, 3), ("PP", 3, 4), ("NP", 4, 5)]
    assert [t.tag_ for t in docs[0]][:3] == ["DT", "NN", "VBD"]
    assert [(s.label_, s.start, s.end) for s in docs[1].spans["chunks"]] == [("VP", 0, 1)]
    for doc in docs:
        _check_doc_basics(doc)


def test_conll2003_iob1_and_docstart(tmp_path, write_input, conll2003_text):
    docs = _read("conll2003", write_input(tmp_path / "eng.testb", conll2003_text, gz=True))
    assert [len(d) for d in docs] == [6, 1]  # -DOCSTART- lines dropped
    ents = [(e.label_, e.start, e.end) for e in docs[0].ents]
    assert ents == [("PER", 0, 2), ("PER", 2, 3), ("LOC", 4, 6)]
    assert [t.ent_iob_ for t in docs[0]] == ["B", "I", "B", "O", "B", "I"]
    chunks = [(s.label_, s.start, s.end) for s in docs[0].spans["chunks"]]
    assert chunks == [("NP", 0, 3), ("VP", 3, 4), ("NP", 4, 6)]
    assert docs[1].ents == () and [t.ent_iob_ for t in docs[1]] == ["O"]


def test_conllu(tmp_path, write_input):
    docs = _read("conllu", write_input(tmp_path / "en_ewt-ud-dev.conllu.gz", CONLLU, gz=True))
    doc = docs[0]
    assert [t.text for t in doc] == ["I", "do", "n't", "know", "."]
    assert [t.tag_ for t in doc] == ["PRP", "VBP", "RB", "VB", "."]
    assert [t.pos_ for t in doc] == ["PRON", "AUX", "PART", "VERB", "PUNCT"]
    assert [t.lemma_ for t in doc] == ["I", "do", "not", "know", "."]
    _check_doc_basics(doc)
    assert docs[1][0].lemma_ == "" and docs[1][0].pos_ == "X"


@pytest.mark.parametrize(
    "name,text,line,expected",
    [
        ("wsj-pos", "The\tDT\ncat\tNN\tX\n", 2, "expected 2 tab-separated columns"),
        ("wsj-pos", "The\tDT\n\tNN\n", 2, "non-empty WORD"),
        ("wsj-pos", "The\tDT\ncat\n", 2, "expected 2 tab-separated columns"),
        ("wsj-pt0", "The\tDT\tB-NP\ncat\tNN\tL-NP\n", 2, "IOB PT0 tag"),
        ("conll2000", "The DT B-NP\n\ncat NN\n", 3, "expected 3 space-separated columns"),
        ("conll2000", "The DT X-NP\n", 1, "IOB CHUNK tag"),
        ("conll2003", "-DOCSTART- -X- -X- O\n\nAnn NNP I-NP PER\n", 3, "IOB NER tag"),
        ("conll2003", "Ann NNP I-NP\n", 1, "expected 4 space-separated columns"),
        ("conllu", "1\tI\tI\tPRON\tPRP\t_\t0\troot\t_\n", 1, "expected 10 tab-separated"),
        ("conllu", CONLLU.replace("5\t.\t.", "6\t.\t."), 9, "expected token ID 5"),
        ("conllu", CONLLU.replace("PUNCT", "PUNC"), 9, "expected a UPOS tag"),
    ],
)
def test_malformed_input_names_file_and_line(tmp_path, write_input, name, text, line, expected):
    path = write_input(tmp_path / "bad.txt", text)
    with pytest.raises(ValueError) as exc:
        _read(name, path)
    assert f"{path}:{line}:" in str(exc.value)
    assert expected in str(exc.value)


@pytest.mark.parametrize("name", sorted(CONVERTERS))
def test_empty_binary_and_undecodable_files(tmp_path, write_input, wsj_pos_text, name):
    empty = write_input(tmp_path / "empty.txt", "\n\n")
    with pytest.raises(ValueError, match="contains no sentences"):
        _read(name, empty)
    binary = tmp_path / "binary.bin"
    binary.write_bytes(b"abc\n\x00\x01\x02\n")
    with pytest.raises(ValueError, match=r"binary\.bin:2: .*binary"):
        _read(name, binary)
    latin1 = tmp_path / "latin1.txt"
    latin1.write_bytes("ok\tNN\n".encode() + "caf\xe9 NN\n".encode("latin-1"))
    with pytest.raises(ValueError, match=r"latin1\.txt:2: expected UTF-8"):
        _read(name, latin1)
    truncated = tmp_path / "truncated.gz"
    truncated.write_bytes(gzip.compress(wsj_pos_text.encode() * 50)[:40])
    with pytest.raises(ValueError, match="truncated.gz"):
        _read(name, truncated)
