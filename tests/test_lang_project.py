"""projects/lang: the project file naming only scripts and configs that exist, the
treebank joined with Universal NER, Universal PropBank re-split by sent_id and the LM's
text in the treebank's syntactic words, each run as the project runs it."""

import gzip
import re
import subprocess
import sys
from pathlib import Path

import pytest
import spacy
import srsly
from spacy.tokens import DocBin
from spacy.vocab import Vocab

PROJECT = Path(__file__).resolve().parent.parent / "projects" / "lang"

# invented sentences in Bosque's CoNLL-U, its UNER IOB2 and UP's columns
CONLLU = (
    "# sent_id = T-1\n"
    "1\tAna\tAna\tPROPN\tPROP|F|S|@SUBJ>\t_\t2\tnsubj\t_\t_\n"
    "2\tmora\tmorar\tVERB\t<mv>|V|PR|3S|IND|@FS-STA\t_\t0\troot\t_\t_\n"
    "3-4\tno\t_\t_\t_\t_\t_\t_\t_\t_\n"
    "3\tem\tem\tADP\t<sam->|PRP|@<ADVL\t_\t5\tcase\t_\t_\n"
    "4\to\to\tDET\t<-sam>|<artd>|ART|M|S|@>N\t_\t5\tdet\t_\t_\n"
    "5\tPorto\tPorto\tPROPN\tPROP|M|S|@P<\t_\t2\tobl\t_\t_\n"
    "\n"
)
UNER = "# sent_id = b-1\n1\tAna\tB-PER\n2\tmora\tO\n3\tem\tO\n4\to\tO\n5\tPorto\tB-LOC\n\n"
UP = (
    '# id="1" ref="T-1"\n'
    "1\tAna\tAna\tPROPN\tPROPN\t_\t2\tnsubj\t_\t_\tA0\n"
    "2\tmora\tmorar\tVERB\tVERB\t_\t0\troot\tY\tlive.01\t_\n"
    "3\tem\tem\tADP\tADP\t_\t5\tcase\t_\t_\t_\n"
    "4\to\to\tDET\tDET\t_\t5\tdet\t_\t_\t_\n"
    "5\tPorto\tPorto\tPROPN\tPROPN\t_\t2\tnmod\t_\t_\tAM-LOC\n"
    "\n"
    '# id="2" ref="T-7"\n1\tSim\tsim\tINTJ\tINTJ\t_\t0\troot\t_\t_\n\n'
)


def gz(path: Path, text: str) -> Path:
    with gzip.open(path, "wt", encoding="utf8") as f:
        f.write(text)
    return path


def run(*args, cwd):
    result = subprocess.run(
        [sys.executable, *map(str, args)], cwd=cwd, capture_output=True, text=True
    )
    assert result.returncode == 0, result.stderr
    return result.stdout


def test_project_names_existing_scripts_and_configs():
    project = srsly.read_yaml(PROJECT / "project.yml")
    names = {command["name"] for command in project["commands"]}
    for workflow in project["workflows"].values():
        assert set(workflow) <= names
    for command in project["commands"]:
        for line in command["script"]:
            pattern = r"(?:scripts|\.\./open/scripts|\.\./\.\./configs)/\S+"
            for path in re.findall(pattern, line):
                assert (PROJECT / path.rstrip("\"'")).is_file(), (command["name"], path)


def test_join_ud_adds_entities_and_says_when_there_are_none(tmp_path):
    tb, uner = gz(tmp_path / "tb.conllu.gz", CONLLU), gz(tmp_path / "u.iob2.gz", UNER)
    script = PROJECT / "scripts" / "join_ud.py"
    out = run(script, tb, "c/train.spacy", "--uner", uner, cwd=tmp_path)
    assert "1 sentences (tag_ = upos, 2 entities" in out
    (doc,) = DocBin().from_disk(tmp_path / "c" / "train.spacy").get_docs(Vocab())
    assert [(e.text, e.label_) for e in doc.ents] == [("Ana", "PER"), ("Porto", "LOC")]
    assert [t.tag_ for t in doc] == ["PROPN", "VERB", "ADP", "DET", "PROPN"]
    out = run(script, tb, "x/train.spacy", "--uner", "", "--tag", "xpos", cwd=tmp_path)
    assert "no Universal NER file" in out
    (doc,) = DocBin().from_disk(tmp_path / "x" / "train.spacy").get_docs(Vocab())
    assert [t.tag_ for t in doc] == ["PROP", "V", "PRP", "ART", "PROP"] and not doc.ents


def test_split_up_places_sentences_by_sent_id_and_names_the_rest(tmp_path):
    tb = gz(tmp_path / "tb.conllu.gz", CONLLU)
    empty = gz(tmp_path / "e.conllu.gz", CONLLU.replace("T-1", "T-2"))
    gz(tmp_path / "up.conllu.gz", UP)
    script = PROJECT / "scripts" / "split_up.py"
    args = ["--train", tb, "--dev", empty, "--test", empty]
    out = run(script, "up", "--data-dir", tmp_path, "--up", "up.conllu.gz", *args, cwd=tmp_path)
    assert "train: 1 sentences, 1 predicates" in out and "dev: 0 sentences" in out
    assert "1 UP sentences in no split, left out: T-7" in out
    (doc,) = DocBin().from_disk(tmp_path / "up" / "train.spacy").get_docs(Vocab())
    assert [(s.label_, s.text) for s in doc.spans["srl:1"]] == [
        ("A0", "Ana"),
        ("V", "mora"),
        ("AM-LOC", "em o Porto"),
    ]
    assert "no SRL data" in run(script, "up2", *args, cwd=tmp_path)


def test_lm_text_is_in_the_treebanks_words(tmp_path):
    tb = gz(tmp_path / "tb.conllu.gz", CONLLU)
    gz(tmp_path / "raw.txt.gz", "Vive no Porto e chama-se Ana.\n\nNO PORTO.\n")
    script = PROJECT / "scripts" / "lm_text.py"
    args = ["--data-dir", tmp_path, "--raw", "raw.txt.gz", "--treebank", "tb.conllu.gz"]
    out = run(script, "pt", tb, "lm/lm.txt.gz", *args, cwd=tmp_path)
    assert "1 contractions, 0 clitics" in out
    with gzip.open(tmp_path / "lm" / "lm.txt.gz", "rt", encoding="utf8") as f:
        lines = f.read().splitlines()
    assert lines == [
        "Vive em o Porto e chama-se Ana .",
        "EM O PORTO .",
        "Ana mora em o Porto",
    ]
    assert (tmp_path / "lm" / "lm.contractions.json").is_file()


def _gold_treebank(vocab) -> DocBin:
    """Gold training Docs in the tags the fixture pipeline predicts, with UPOS and lemmas."""
    rows = """The DT DET the  big JJ ADJ big  dogs NNS NOUN dog  barked VBD VERB bark
        John NNP PROPN John  cats NNS NOUN cat  in IN ADP in  Paris NNP PROPN Paris
        . . PUNCT .  He PRP PRON he  walks VBZ VERB walk  today NN NOUN today
        Smith NNP PROPN Smith  visited VBD VERB visit  a DT DET a  old JJ ADJ old
        runs VBZ VERB run  fast RB ADV fast  and CC CCONJ and  books NNS NOUN book
        Mary NNP PROPN Mary  , , PUNCT ,  with IN ADP with  quickly RB ADV quickly""".split()
    words, tags, pos, lemmas = rows[0::4], rows[1::4], rows[2::4], rows[3::4]
    docbin = DocBin()
    docbin.add(spacy.tokens.Doc(vocab, words=words, tags=tags, pos=pos, lemmas=lemmas))
    return docbin


def test_assemble_builds_another_language_from_its_treebank(load_script, pipeline_dir, tmp_path):
    """projects/open's assemble.py with --lang: the language's pipeline, splitting
    contractions, pos_ from every tag and lemmas learnt from the treebank, its meta's sources
    and its card; without --treebank or --meta it says what is missing."""
    from spacy_senna.corpora.converters.contractions import ContractionTable

    assemble = load_script(PROJECT.parent / "open" / "scripts" / "assemble.py")
    _gold_treebank(Vocab()).to_disk(tmp_path / "train.spacy")
    ContractionTable({"dos": ["de", "os"]}, {}).to_disk(tmp_path / "contractions.json")
    meta = {"description": "a test", "license": "CC BY-SA 4.0", "sources": ["invented"]}
    srsly.write_json(tmp_path / "meta.json", meta)
    (tmp_path / "card.md").write_text("# xx_senna\n", encoding="utf8")
    out = tmp_path / "pt_senna"
    settings = dict(lang="pt", treebank=tmp_path / "train.spacy", meta_file=tmp_path / "meta.json")
    assemble.assemble(
        [str(pipeline_dir)], out, [], tmp_path / "card.md", "float16",
        contractions=tmp_path / "contractions.json", **settings,
    )  # fmt: skip
    nlp = spacy.load(out)
    assert nlp.lang == "pt" and nlp.meta["sources"] == ["invented"]
    assert nlp.pipe_names[:5] == [
        "sentencizer", "senna_tagger", "attribute_ruler", "lemmatizer", "senna_chunker"
    ]  # fmt: skip
    assert (out / "README.md").read_text(encoding="utf8") == "# xx_senna\n"
    assert not (out / "lemmatizer" / "WordNet-LICENSE.txt").exists()
    doc = nlp("The big dogs barked dos cats.\n\nJohn")
    assert [t.text for t in doc][4:6] == ["de", "os"]
    assert [(t.tag_, t.pos_) for t in doc if t.is_space] == [("_SP", "SPACE")]
    assert all(t.pos_ for t in doc)
    for token in doc:
        if token.tag_ == "NNS":
            assert token.pos_ == "NOUN"
    assert {t.text: t.lemma_ for t in doc}["dogs"] == "dog"
    for missing in ("treebank", "meta_file"):
        kept = {k: v for k, v in settings.items() if k != missing}
        with pytest.raises(SystemExit, match="--treebank|--meta"):
            assemble.assemble([str(pipeline_dir)], tmp_path / "x", [], None, "float16", **kept)


def test_join_documents_keeps_every_word_label_and_multiword_token(load_script):
    """scripts/join_documents.py: consecutive sentences of one document (the sent_id's part
    before its last "-") become one Doc, entities, chunks and multiword tokens at the
    document's offsets; a sentence without a sent_id stays alone."""
    join = load_script(PROJECT / "scripts" / "join_documents.py")
    vocab = Vocab()

    def sentence(words, sent_id, multiword=()):
        doc = spacy.tokens.Doc(vocab, words=words, ents=["B-PER"] + ["O"] * (len(words) - 1))
        doc.user_data.update({join.SENT_ID_KEY: sent_id, join.MULTIWORD_KEY: list(multiword)})
        return doc

    docs = [
        sentence(["Ana", "mora", "em", "o", "Porto"], "CF1-1", [[2, 4, "no"]]),
        sentence(["Rui", "também", "."], "CF1-2"),
        sentence(["Eva", "saiu", "de", "o", "Rio"], "CF2-1", [[2, 4, "do"]]),
        sentence(["Sim", "."], None),
    ]
    joined, missing = join.join_documents(docs)
    assert missing == 1 and [len(doc) for doc in joined] == [8, 5, 2]
    first = joined[0]
    assert [(e.start, e.text) for e in first.ents] == [(0, "Ana"), (5, "Rui")]
    assert first.user_data[join.MULTIWORD_KEY] == [[2, 4, "no"]]
    assert first.user_data[join.SENT_IDS] == ["CF1-1", "CF1-2"]
    assert joined[1].user_data[join.MULTIWORD_KEY] == [[2, 4, "do"]]


def test_join_ud_refuses_a_tag_the_treebank_lacks(tmp_path):
    no_xpos = re.sub(r"^(\d+\t[^\t]+\t[^\t]+\t[^\t]+)\t[^\t]+", r"\1\t_", CONLLU, flags=re.M)
    tb = gz(tmp_path / "tb.conllu.gz", no_xpos)
    script = PROJECT / "scripts" / "join_ud.py"
    result = subprocess.run(
        [sys.executable, str(script), str(tb), "x/train.spacy", "--tag", "xpos"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
    )
    assert result.returncode != 0 and "has a XPOS" in result.stderr
    assert not (tmp_path / "x" / "train.spacy").exists()
    run(script, tb, "u/train.spacy", "--tag", "upos", cwd=tmp_path)  # UPOS is there


def test_evaluate_anchor_scores_both_pipelines_on_the_same_words(load_script, tmp_path):
    """scripts/evaluate_anchor.py: UPOS from pos_ (tag_ where no pos_ is set), lemmas where
    a pipeline lemmatizes, words/s of each, on the treebank's words."""
    evaluate_anchor = load_script(PROJECT / "scripts" / "evaluate_anchor.py")
    vocab = Vocab()
    gold = [spacy.tokens.Doc(vocab, words=["Ana", "mora"], pos=["PROPN", "VERB"])]
    gold[0][0].lemma_, gold[0][1].lemma_ = "Ana", "morar"
    tagged = spacy.tokens.Doc(vocab, words=["Ana", "mora"], tags=["PROPN", "NOUN"])
    assert evaluate_anchor.accuracy([tagged], gold) == {"upos": 50.0}
    tagged[1].lemma_ = "morar"
    assert evaluate_anchor.accuracy([tagged], gold) == {"upos": 50.0, "lemma": 50.0}
    DocBin(docs=gold).to_disk(tmp_path / "gold.spacy")
    for name, tags in (("senna", {"Ana": "PROPN", "mora": "VERB"}), ("anchor", {"Ana": "NOUN"})):
        nlp = spacy.blank("pt")
        ruler = nlp.add_pipe("attribute_ruler")
        for word, tag in tags.items():
            ruler.add([[{"ORTH": word}]], {"POS": tag})
        nlp.to_disk(tmp_path / name)
    results = evaluate_anchor.compare(
        str(tmp_path / "senna"), str(tmp_path / "anchor"), tmp_path / "gold.spacy", 1
    )
    assert results["words"] == 2 and results["senna"]["upos"] == 100.0
    assert results["anchor"]["upos"] == 0.0 and results["anchor"]["words_per_second"] > 0


def test_up_sentences_take_the_treebank_sentences_multiword_tokens(load_script):
    """evaluate_raw.py --srl: a UP sentence gets the multiword tokens of the treebank
    sentence with its sent_id when their words are the same, else it is left out."""
    from spacy.tokens import Doc

    from spacy_senna.corpora.converters.rows import SENT_ID_KEY
    from spacy_senna.corpora.converters.ud import MULTIWORD_KEY

    evaluate_raw = load_script(PROJECT / "scripts" / "evaluate_raw.py")
    vocab = Vocab()

    def doc(words, sent_id, multiword=None):
        made = Doc(vocab, words=words)
        made.user_data[SENT_ID_KEY] = sent_id
        if multiword is not None:
            made.user_data[MULTIWORD_KEY] = multiword
        return made

    treebank = [
        doc(["Mora", "em", "o", "Porto"], "s1", [[1, 3, "no"]]),
        doc(["Chove", "."], "s2", []),
    ]
    up = [doc(["Mora", "em", "o", "Porto"], "s1"), doc(["Chove", "!"], "s2"), doc(["Sim"], "s9")]
    kept, left_out = evaluate_raw.with_multiword_tokens(up, treebank)
    assert [d.user_data[SENT_ID_KEY] for d in kept] == ["s1"] and left_out == 2
    assert kept[0].user_data[MULTIWORD_KEY] == [[1, 3, "no"]]


def test_an_ensemble_of_one_ner_twice_labels_as_that_ner(load_script, pipeline_dir, tmp_path):
    from senna_fixtures.examples import PIPELINE_SENTENCES

    script = load_script(PROJECT / "scripts" / "ner_ensemble.py")
    nlp = spacy.load(pipeline_dir)
    docs = [nlp(text) for text, *_ in PIPELINE_SENTENCES]
    assert any(doc.ents for doc in docs)
    DocBin(docs=docs).to_disk(tmp_path / "gold.spacy")
    result = script.score(tmp_path / "gold.spacy", [str(pipeline_dir)] * 2)
    assert result["ents_f"] == 100.0
    n = script.label(tmp_path / "gold.spacy", tmp_path / "silver.spacy", [str(pipeline_dir)] * 2)
    silver = list(DocBin().from_disk(tmp_path / "silver.spacy").get_docs(nlp.vocab))
    assert n == sum(len(doc.ents) for doc in docs)
    assert [[(e.start, e.end, e.label_) for e in d.ents] for d in silver] == [
        [(e.start, e.end, e.label_) for e in d.ents] for d in docs
    ]
