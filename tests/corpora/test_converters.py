"""The benchmark-format converters: each format read into Docs, and malformed, empty,
binary, undecodable or truncated files named in a ValueError."""

import gzip

import pytest
from spacy.lang.en import English
from spacy.tokens import DocBin
from spacy.vocab import Vocab

from spacy_senna.corpora.converters import CONVERTERS, read_conll2005

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
CONLL2005 = """\
The DT (S1(S(NP* * - - (A0* *
cat NN *) * - - *) *
chased VBD (VP* * 01 chase (V*) *
the DT (NP* * - - (A1* (A0*
mouse NN *)) * - - *) *)
barked VBD (VP*) * 01 bark * (V*)
. . *)) * - - * *

Dogs NNS (S1(S(NP*) * - -
. . *)) * - -
"""


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


def test_conll2005_converter_writes_tags_predicates_and_frames(
    tmp_path, write_input, srl_frames_of
):
    vocab = English().vocab
    docs = list(read_conll2005(write_input(tmp_path / "srl.txt.gz", CONLL2005, gz=True), vocab))
    assert len(docs) == 2
    doc = docs[0]
    assert doc[2].tag_ == "VBD"
    assert [(s.start, s.label_) for s in doc.spans["srl_predicates"]] == [(2, "chase"), (5, "bark")]
    assert srl_frames_of(doc) == {
        2: [("A0", 0, 2), ("A1", 3, 5), ("V", 2, 3)],
        5: [("A0", 3, 5), ("V", 5, 6)],
    }
    assert len(docs[1].spans["srl_predicates"]) == 0 and docs[1]._.srl_frames == []
    reloaded = list(DocBin(docs=docs, store_user_data=True).get_docs(vocab))
    assert (
        srl_frames_of(reloaded[0]) == srl_frames_of(doc) and "srl_predicates" in reloaded[1].spans
    )


@pytest.mark.parametrize(
    "broken, message",
    [
        (CONLL2005.replace("(A1* (A0*", "(A1 (A0*"), "Start-End tag"),
        (CONLL2005.replace("mouse NN *)) * - - *) *)", "mouse NN *)) * - - * *)"), "never closed"),
        (CONLL2005.replace("cat NN *) * - - *) *", "cat NN *) * - - *)"), "same number"),
        (CONLL2005.replace("01 bark", "- -"), "argument columns"),
        (CONLL2005.replace("(V*) *\n", "* *\n"), r"not inside the V \(or C-V\) argument"),
        (CONLL2005.replace("the DT (NP* * - - (A1*", "the DT (NP* * - - (A1*)"), "closes no open"),
    ],
)
def test_conll2005_converter_names_the_broken_line(tmp_path, write_input, broken, message):
    path = write_input(tmp_path / "broken.txt.gz", broken, gz=True)
    with pytest.raises(ValueError, match=message):
        list(read_conll2005(path, English().vocab))


def test_conll2005_converter_writes_the_level0_segments_of_the_parse(tmp_path, write_input):
    doc = next(
        read_conll2005(write_input(tmp_path / "srl.txt.gz", CONLL2005, gz=True), English().vocab)
    )
    # (S1(S(NP The cat) (VP chased (NP the mouse)) (VP barked) .)): "." hangs off the top S
    assert [(s.label_, s.start, s.end) for s in doc.spans["pt0"]] == [
        ("NP", 0, 2),
        ("VP", 2, 3),
        ("NP", 3, 5),
        ("VP", 5, 6),
    ]


@pytest.mark.parametrize(
    "parse, message",
    [("(S1(S(NP(NP*", "never closed"), ("(S1*))", "closes more"), ("S1*", "parse tag")],
)
def test_level0_segments_name_a_broken_parse_line(tmp_path, write_input, parse, message):
    lines = CONLL2005.splitlines()
    columns = lines[0].split()
    columns[2] = parse
    text = "\n".join([" ".join(columns), *lines[1:]]) + "\n"
    with pytest.raises(ValueError, match=message):
        list(
            read_conll2005(write_input(tmp_path / "broken.txt.gz", text, gz=True), English().vocab)
        )
