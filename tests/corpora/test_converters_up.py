"""Universal PropBank: head-word arguments read as SRL frames of spans, UD v1 names read as
v2's, sentences re-split by sent_id, and malformed lines named in a ValueError."""

import gzip

import pytest
from spacy.vocab import Vocab

from spacy_senna.corpora.converters import CONVERTERS, SENT_ID_KEY
from spacy_senna.corpora.converters.up import split_by_sent_id
from spacy_senna.srl.frames import frame_keys

# an invented sentence in UP's columns (UD v1 names: CONJ, name), two predicates
UP = (
    '# id="1" ref="T1-1" text="O João Silva disse que a Ana comprou e vendeu casas."\n'
    "1\tO\to\tDET\tDET\t_\t2\tdet\t_\t_\t_\t_\n"
    "2\tJoão\tJoão\tPROPN\tPROPN\t_\t4\tnsubj\t_\t_\tA0\t_\n"
    "3\tSilva\tSilva\tPROPN\tPROPN\t_\t2\tname\t_\t_\t_\t_\n"
    "4\tdisse\tdizer\tVERB\tVERB\t_\t0\troot\tY\tsay.01\t_\t_\n"
    "5\tque\tque\tSCONJ\tSCONJ\t_\t8\tmark\t_\t_\t_\t_\n"
    "6\ta\to\tDET\tDET\t_\t7\tdet\t_\t_\t_\t_\n"
    "7\tAna\tAna\tPROPN\tPROPN\t_\t8\tnsubj\t_\t_\t_\tA0\n"
    "8\tcomprou\tcomprar\tVERB\tVERB\t_\t4\tccomp\tY\tbuy.01\tA1\t_\n"
    "9\te\te\tCONJ\tCONJ\t_\t8\tcc\t_\t_\t_\t_\n"
    "10\tvendeu\tvender\tVERB\tVERB\t_\t8\tconj\t_\t_\t_\t_\n"
    "11\tcasas\tcasa\tNOUN\tNOUN\t_\t10\tdobj\t_\t_\t_\t_\n"
    "12\t.\t.\tPUNCT\tPUNCT\t_\t4\tpunct\t_\t_\t_\t_\n"
    "\n"
    '# id="2" ref="T9-9" text="Chove."\n'
    "1\tChove\tchover\tVERB\tVERB\t_\t0\troot\t_\t_\n"
    "2\t.\t.\tPUNCT\tPUNCT\t_\t1\tpunct\t_\t_\n"
    "\n"
)


def write(tmp_path, name, text):
    path = tmp_path / name
    with gzip.open(path, "wt", encoding="utf8") as f:
        f.write(text)
    return path


def test_up_frames_are_spans_around_the_argument_heads(tmp_path):
    docs = list(CONVERTERS["up"](write(tmp_path, "up.conllu.gz", UP), Vocab()))
    doc = docs[0]
    assert doc.user_data[SENT_ID_KEY] == "T1-1"
    assert [(s.label_, s.start) for s in doc.spans["srl_predicates"]] == [
        ("say.01", 3),
        ("buy.01", 7),
    ]
    frames = {i: [(s.label_, s.text) for s in doc.spans[key]] for i, key in frame_keys(doc)}
    # the clause coordinated with "comprou" and the final stop stay out of A1
    assert frames[3] == [("A0", "O João Silva"), ("V", "disse"), ("A1", "que a Ana comprou")]
    assert frames[7] == [("A0", "a Ana"), ("V", "comprou")]
    assert doc[8].tag_ == "CCONJ" and doc[2].dep_ == "flat:name" and doc[10].dep_ == "obj"
    assert [(s.label_, s.text) for s in doc.spans["chunks"]][:2] == [
        ("NP", "O João Silva"),
        ("VP", "disse"),
    ]
    assert len(docs[1].spans["srl_predicates"]) == 0 and frame_keys(docs[1]) == []


def test_split_by_sent_id_places_and_reports(tmp_path):
    docs = list(CONVERTERS["up"](write(tmp_path, "up.conllu.gz", UP), Vocab()))
    placed, unplaced = split_by_sent_id(docs, {"train": {"T0-1"}, "test": {"T1-1"}})
    assert [len(v) for v in placed.values()] == [0, 1] and unplaced == ["T9-9"]


@pytest.mark.parametrize(
    "line, bad, message",
    [
        ("4\tdisse", "5\tdisse", r":5: expected word ID 4, found '5'"),
        ("\tVERB\tVERB\t_\t0\troot\tY", "\tVERBO\tVERB\t_\t0\troot\tY", r":5: expected a UPOS tag"),
        ("\t0\troot\tY", "\t99\troot\tY", r":5: expected a HEAD between 0 and 12"),
        ("\troot\tY\tsay.01", "\troot\tX\tsay.01", r":5: expected Y or _ as predicate flag"),
        ("\troot\tY\tsay.01", "\troot\tY\t_", r":5: predicate without a frame"),
        ("\tname\t_\t_\t_\t_\n", "\tname\t_\t_\t_\n", r":4: expected 12 tab-separated columns"),
        ("\tpunct\t_\t_\t_\t_\n", "\tpunct\t_\t_\t_\t_\t_\n", r":13: expected 12 .* found 13"),
        ("\tccomp\tY\tbuy.01", "\tccomp\t_\tbuy.01", r":2: the sentence flags 1 predicates"),
    ],
)
def test_malformed_up_names_file_and_line(tmp_path, line, bad, message):
    assert line in UP
    path = write(tmp_path, "bad.conllu.gz", UP.replace(line, bad, 1))
    with pytest.raises(ValueError, match=r"bad\.conllu\.gz" + message):
        list(CONVERTERS["up"](path, Vocab()))


def test_an_argument_inside_anothers_subtree_cuts_the_outer_span():
    """ "viu [a casa] [de o João]": the second argument's head hangs under the first, and
    its determiner sits between them: the outer span stops where the inner one starts."""
    from spacy_senna.corpora.converters.up import argument_spans

    # viu(root) casa(obj of viu) o(det of João) João(nmod of casa)
    heads, deprels = [-1, 0, 3, 1], ["root", "obj", "det", "nmod"]
    upos = ["VERB", "NOUN", "DET", "PROPN"]
    assert argument_spans(heads, 0, [1, 3], deprels, upos) == [(1, 2), (2, 4)]
    # the inner argument first in the list: the same cut
    assert argument_spans(heads, 0, [3, 1], deprels, upos) == [(2, 4), (1, 2)]
