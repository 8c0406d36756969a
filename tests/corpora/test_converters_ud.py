"""UD treebanks of any language as Docs of syntactic words (multiword tokens, coarse XPOS,
trees, chunks derived from them), Universal NER joined by position, the contraction
table learnt from multiword tokens, and malformed lines named in a ValueError."""

import gzip

import pytest
from spacy.vocab import Vocab

from spacy_senna.corpora.converters import CONVERTERS, MULTIWORD_KEY, SENT_ID_KEY
from spacy_senna.corpora.converters.contractions import ContractionTable
from spacy_senna.corpora.converters.ud import coarse_xpos, join_uner, read_ud_sentences
from spacy_senna.corpora.converters.ud_chunks import chunk_spans_from_tree

# invented sentences, written as UD Portuguese-Bosque writes them (`.xpos.conllu`)
CONLLU = (
    "# sent_id = T1-1\n"
    "# text = A Ana mora no Porto.\n"
    "1\tA\to\tDET\t<artd>|ART|F|S|@>N\tDefinite=Def|Gender=Fem\t2\tdet\t_\t_\n"
    "2\tAna\tAna\tPROPN\tPROP|F|S|@SUBJ>\tGender=Fem|Number=Sing\t3\tnsubj\t_\t_\n"
    "3\tmora\tmorar\tVERB\t<mv>|V|PR|3S|IND|@FS-STA\tMood=Ind\t0\troot\t_\t_\n"
    "4-5\tno\t_\t_\t_\t_\t_\t_\t_\t_\n"
    "4\tem\tem\tADP\t<sam->|PRP|@<ADVL\t_\t6\tcase\t_\t_\n"
    "5\to\to\tDET\t<-sam>|<artd>|ART|M|S|@>N\tDefinite=Def\t6\tdet\t_\t_\n"
    "6\tPorto\tPorto\tPROPN\t_\tGender=Masc\t3\tobl\t_\tSpaceAfter=No\n"
    "7\t.\t.\tPUNCT\tPU|@PU\t_\t3\tpunct\t_\t_\n"
    "\n"
    "# sent_id = T1-2\n"
    "# text = Tornou-se nos anos muito grande.\n"
    "1-2\tTornou-se\t_\t_\t_\t_\t_\t_\t_\t_\n"
    "1\tTornou\ttornar\tVERB\t_\t_\t0\troot\t_\t_\n"
    "2\tse\tse\tPRON\t_\t_\t1\texpl\t_\t_\n"
    "3-4\tnos\t_\t_\t_\t_\t_\t_\t_\t_\n"
    "3\tem\tem\tADP\t_\t_\t5\tcase\t_\t_\n"
    "4\tos\to\tDET\t_\t_\t5\tdet\t_\t_\n"
    "5\tanos\tano\tNOUN\t_\t_\t1\tobl\t_\t_\n"
    "6\tmuito\tmuito\tADV\t_\t_\t7\tadvmod\t_\t_\n"
    "7\tgrande\tgrande\tADJ\t_\t_\t1\txcomp\t_\tSpaceAfter=No\n"
    "8\t.\t.\tPUNCT\t_\t_\t1\tpunct\t_\t_\n"
    "\n"
)
# the same words, as Universal NER writes them (its own sent_ids)
UNER = (
    "# sent_id = batch-0000-0001\n"
    "1\tA\tO\t-\t-\n"
    "2\tAna\tB-PER\t-\t-\n"
    "3\tmora\tO\t-\t-\n"
    "4\tem\tO\t-\t-\n"
    "5\to\tO\t-\t-\n"
    "6\tPorto\tB-LOC\t-\t-\n"
    "7\t.\tO\t-\t-\n"
    "\n"
    "# sent_id = batch-0000-0002\n"
    "1\tTornou\tO\n2\tse\tO\n3\tem\tO\n4\tos\tO\n5\tanos\tO\n6\tmuito\tO\n"
    "7\tgrande\tO\n8\t.\tO\n"
    "\n"
)


def write(tmp_path, name, text):
    path = tmp_path / name
    with gzip.open(path, "wt", encoding="utf8") as f:
        f.write(text)
    return path


def test_ud_reads_syntactic_words_with_xpos_tree_and_multiword_tokens(tmp_path):
    path = write(tmp_path, "t.xpos.conllu.gz", CONLLU)
    docs = list(CONVERTERS["ud-xpos"](path, Vocab()))
    assert [t.text for t in docs[0]] == ["A", "Ana", "mora", "em", "o", "Porto", "."]
    assert [t.tag_ for t in docs[0]] == ["ART", "PROP", "V", "PRP", "ART", "", "PU"]
    assert [t.pos_ for t in docs[0]][:3] == ["DET", "PROPN", "VERB"]
    assert docs[0][2].lemma_ == "morar" and str(docs[0][1].morph) == "Gender=Fem|Number=Sing"
    assert docs[0][1].head.i == 2 and docs[0][2].dep_ == "root" and docs[0][2].head.i == 2
    assert docs[0].user_data[SENT_ID_KEY] == "T1-1"
    assert docs[0].user_data[MULTIWORD_KEY] == [[3, 5, "no"]]
    assert docs[0].text == "A Ana mora em o Porto."
    upos = list(CONVERTERS["ud"](path, Vocab()))
    assert [t.tag_ for t in upos[1]] == [t.pos_ for t in upos[1]]


def test_chunks_are_derived_from_the_tree(tmp_path):
    docs = list(CONVERTERS["ud"](write(tmp_path, "t.conllu.gz", CONLLU), Vocab()))
    chunks = [[(s.label_, s.text) for s in doc.spans["chunks"]] for doc in docs]
    assert chunks[0] == [("NP", "A Ana"), ("VP", "mora"), ("PP", "em"), ("NP", "o Porto")]
    assert chunks[1] == [
        ("VP", "Tornou"),
        ("NP", "se"),
        ("PP", "em"),
        ("NP", "os anos"),
        ("ADVP", "muito"),
        ("ADJP", "grande"),
    ]


def test_chunk_derivation_keeps_chunks_contiguous_and_joins_auxiliaries():
    # "o livro que tinha sido lido": the relative clause's auxiliaries join its verb;
    # "o" and "livro" join, "que" (a pronoun, nsubj) is its own NP
    upos = ["DET", "NOUN", "PRON", "AUX", "AUX", "VERB"]
    heads = [1, -1, 5, 5, 5, 1]
    deprels = ["det", "root", "obj", "aux", "aux:pass", "acl:relcl"]
    assert chunk_spans_from_tree(upos, heads, deprels) == [
        ("NP", 0, 2),
        ("NP", 2, 3),
        ("VP", 3, 6),
    ]
    # an adjective whose head lies across a verb stays apart
    assert chunk_spans_from_tree(["ADJ", "VERB", "NOUN"], [2, -1, 1], ["amod", "root", "obj"]) == [
        ("ADJP", 0, 1),
        ("VP", 1, 2),
        ("NP", 2, 3),
    ]
    with pytest.raises(ValueError, match="one entry per word"):
        chunk_spans_from_tree(["NOUN"], [-1, 0], ["root"])


def test_coarse_xpos():
    assert coarse_xpos("<-sam>|<artd>|ART|M|S|@>N") == "ART"
    assert coarse_xpos("PU|@PU") == "PU" and coarse_xpos("NN") == "NN"
    assert coarse_xpos("_") == "" and coarse_xpos("<x>|@y") == ""


def test_uner_joins_by_position_and_refuses_other_words(tmp_path):
    vocab = Vocab()
    path = write(tmp_path, "t.conllu.gz", CONLLU)
    uner = write(tmp_path, "t.iob2.gz", UNER)
    docs = list(join_uner(CONVERTERS["ud"](path, vocab), uner, vocab))
    assert [(e.label_, e.text) for e in docs[0].ents] == [("PER", "Ana"), ("LOC", "Porto")]
    assert docs[0].user_data[SENT_ID_KEY] == "T1-1"
    other = write(tmp_path, "o.iob2.gz", UNER.replace("\tPorto\t", "\tLisboa\t"))
    with pytest.raises(ValueError, match=r"o\.iob2\.gz: sentence 1 .*other words"):
        list(join_uner(CONVERTERS["ud"](path, vocab), other, vocab))
    short = write(tmp_path, "s.iob2.gz", UNER.split("\n\n")[0] + "\n")
    with pytest.raises(ValueError, match="ends after 1 sentences"):
        list(join_uner(CONVERTERS["ud"](path, vocab), short, vocab))
    longer = write(tmp_path, "l.iob2.gz", UNER + UNER)
    with pytest.raises(ValueError, match="more sentences than the treebank"):
        list(join_uner(CONVERTERS["ud"](path, vocab), longer, vocab))


@pytest.mark.parametrize(
    "line, bad, message",
    [
        ("3\tmora\tmorar\tVERB\t", "3\tmora\tmorar\tVERB\n", r":5: expected 10 .*found 4"),
        ("3\tmora\tmorar\tVERB\t", "9\tmora\tmorar\tVERB\t", r":5: expected word ID 3, found '9'"),
        ("\tVERB\t<mv>", "\tVERBO\t<mv>", r":5: expected a UPOS tag, found 'VERBO'"),
        ("4-5\tno\t", "4-9\tno\t", r":6: multiword token 4-9 ends after the last word"),
        ("4-5\tno\t", "5-6\tno\t", r":6: multiword token '5-6'"),
        ("\tMood=Ind\t0\t", "\tMood=Ind\tx\t", r":5: expected a HEAD between 0 and 7, found 'x'"),
    ],
)
def test_malformed_conllu_names_file_and_line(tmp_path, line, bad, message):
    assert line in CONLLU
    path = write(tmp_path, "bad.conllu.gz", CONLLU.replace(line, bad, 1))
    with pytest.raises(ValueError, match=r"bad\.conllu\.gz" + message):
        list(read_ud_sentences(path))


def test_contraction_table_learnt_from_multiword_tokens(tmp_path):
    table = ContractionTable.learn(read_ud_sentences(write(tmp_path, "t.conllu.gz", CONLLU)))
    assert table.split("no") == ["em", "o"]
    assert table.split("No") == ["Em", "o"] and table.split("NOS") == ["EM", "OS"]
    assert table.split("casa") == ["casa"]
    # a hyphenated form never seen whole: host as written, the clitic split off
    assert table.split("lembrou-se") == ["lembrou", "se"]
    assert table.split("bem-vindo") == ["bem-vindo"]
    assert table.split_all(["Mora", "no", "Porto"]) == ["Mora", "em", "o", "Porto"]
    table.to_disk(tmp_path / "table.json")
    again = ContractionTable.from_disk(tmp_path / "table.json")
    assert again.forms == table.forms and again.clitics == table.clitics


def test_contraction_table_keeps_a_form_read_whole_more_often(tmp_path):
    # "nos" as the pronoun (one word) twice, as "em os" once in CONLLU: not split
    pronoun = (
        "# sent_id = T2-1\n"
        "1\tnos\tnós\tPRON\t_\t_\t2\tobj\t_\t_\n"
        "2\tviu\tver\tVERB\t_\t_\t0\troot\t_\t_\n"
        "\n"
    )
    path = write(tmp_path, "t.conllu.gz", CONLLU + pronoun + pronoun.replace("T2-1", "T2-2"))
    table = ContractionTable.learn(read_ud_sentences(path))
    assert table.split("nos") == ["nos"] and table.split("no") == ["em", "o"]
