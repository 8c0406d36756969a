"""projects/quickstart: the demo-corpus generator and the project's files and scripts.

`spacy package` of a senna pipeline is tested in test_packaging.py.
"""

from collections import Counter
from pathlib import Path

import pytest
import spacy
import srsly
from spacy.lang.en import English
from spacy.tokens import Span
from spacy.vocab import Vocab

import spacy_senna  # noqa: F401
from spacy_senna.corpora.converters import CONVERTERS

ROOT = Path(__file__).resolve().parent.parent
PROJECT = ROOT / "projects" / "quickstart"

PTB_TAGS = set(
    "CC CD DT EX FW IN JJ JJR JJS LS MD NN NNS NNP NNPS PDT POS PRP PRP$ RB RBR RBS RP SYM TO "
    "UH VB VBD VBG VBN VBP VBZ WDT WP WP$ WRB $ # `` '' ( ) , . :".split()
)
CHUNK_TYPES = {"NP", "VP", "PP", "ADJP", "ADVP", "SBAR", "PRT"}
ENTITY_TYPES = {"PER", "LOC", "ORG", "MISC"}


SCRIPTS = PROJECT / "scripts"


@pytest.fixture(scope="module")
def make_data(load_script):
    return load_script(SCRIPTS / "make_data.py")


@pytest.fixture(scope="module")
def stories(make_data):
    return make_data.split(seed=3, n_train=400, n_dev=100)


def iob2_spans(tags):
    spans = []
    for i, tag in enumerate(tags):
        assert tag == "O" or tag[:2] in ("B-", "I-"), tag
        if tag.startswith("B-"):
            spans.append([tag[2:], i, i + 1])
        elif tag.startswith("I-"):
            assert spans and spans[-1][0] == tag[2:] and spans[-1][2] == i, (i, tags)
            spans[-1][2] = i + 1
    return [tuple(s) for s in spans]


def test_generator_counts_and_disjoint_splits(stories):
    train, dev = stories
    train_sents = [tuple(s.words) for story in train for s in story]
    dev_sents = [tuple(s.words) for story in dev for s in story]
    assert (len(train_sents), len(dev_sents)) == (400, 100)
    assert len(set(train_sents + dev_sents)) == 500


def test_generated_annotation_is_consistent(stories):
    n_entities = {t: 0 for t in ENTITY_TYPES}
    n_chunks = {t: 0 for t in CHUNK_TYPES}
    for story in stories[0] + stories[1]:
        for s in story:
            assert len(s.words) == len(s.tags) == len(s.chunks) == len(s.ents) > 0
            assert set(s.tags) <= PTB_TAGS, s.tags
            chunks = iob2_spans(s.chunks)
            for label, start, end in chunks:
                n_chunks[label] += 1
                tags = s.tags[start:end]
                if label == "PP":
                    assert tags in (["IN"], ["TO"]), (s.words, tags)
                if label == "VP":
                    assert any(t.startswith(("VB", "MD")) for t in tags), (s.words, tags)
                if label == "NP":
                    assert not any(t.startswith(("VB", "MD", "IN")) for t in tags), s.words
            for i, chunk in enumerate(s.chunks):
                if chunk == "O":
                    assert s.tags[i] in {",", ".", ":", "``", "''", "(", ")", "CC"}, s.words
            for label, start, end in iob2_spans(s.ents):
                n_entities[label] += 1
                allowed = {"NNP", "NNPS", "JJ"} if label == "MISC" else {"NNP", "NNPS"}
                assert set(s.tags[start:end]) <= allowed, (s.words[start:end], label)
                assert s.words[start][0].isupper()
                assert any(c == "NP" and a <= start and end <= b for c, a, b in chunks)
    assert set(n_chunks) == CHUNK_TYPES and min(n_chunks.values()) > 0, n_chunks
    assert set(n_entities) == ENTITY_TYPES and min(n_entities.values()) > 5, n_entities


def test_generator_is_seeded(make_data):
    def words(seed):
        return [s.words for story in make_data.split(seed, 50, 10)[0] for s in story]

    assert words(5) == words(5)
    assert words(5) != words(6)


def test_iob1_conversion(make_data):
    tags = ["I-PER", "I-PER", "B-PER", "O", "I-LOC"]
    iob2 = ["B-PER", "I-PER", "B-PER", "O", "B-LOC"]
    assert make_data.iob2_to_iob1(iob2) == tags


def test_check_rejects_inconsistent_annotation(make_data):
    words, tags = ["Anna", "Smith", "left"], ["NNP", "NNP", "VBD"]
    make_data.check(
        make_data.Sentence(words, tags, ["B-NP", "I-NP", "B-VP"], ["B-PER", "I-PER", "O"])
    )
    with pytest.raises(ValueError, match="not valid IOB2"):
        make_data.check(make_data.Sentence(words, tags, ["B-NP", "I-NP", "I-VP"], ["O"] * 3))
    with pytest.raises(ValueError, match="PER entity with tags"):
        make_data.check(
            make_data.Sentence(words, tags, ["B-NP", "I-NP", "I-NP"], ["O", "B-PER", "I-PER"])
        )


def test_vocabulary_file_errors_name_the_file_and_line(tmp_path, monkeypatch, load_script):
    lexicon = load_script(SCRIPTS / "lexicon.py")  # loads every shipped list
    assert len(lexicon.CITIES) > 10 and ["New", "York"] in lexicon.CITIES
    monkeypatch.setattr(lexicon, "VOCABULARY", tmp_path)
    (tmp_path / "ok.txt").write_text("# a comment\n\nthe/DT United/NNP States/NNPS\n")
    assert lexicon.tagged("ok") == [(["the", "United", "States"], ["DT", "NNP", "NNPS"])]
    (tmp_path / "verbs.txt").write_text("# forms\nbuy buys bought bought buying\nsell sells sold\n")
    with pytest.raises(
        ValueError, match=r"verbs\.txt:3: expected 5 space-separated fields, found 3"
    ):
        lexicon.verbs("verbs")
    (tmp_path / "places.txt").write_text("the/DT Hague\n")
    with pytest.raises(ValueError, match=r"places\.txt:1: expected WORD/TAG, found 'Hague'"):
        lexicon.tagged("places")


def test_spacy_tokenizer_reproduces_the_tokens(stories):
    nlp = English()
    for story in stories[1]:
        for s in story:
            assert [t.text for t in nlp.make_doc(" ".join(s.words))] == s.words


def test_written_files_round_trip_through_the_converters(make_data, stories, tmp_path):
    train, _ = stories
    make_data.write(train[:20], tmp_path, "train")
    expected = [s for story in train[:20] for s in story]
    files = {
        "wsj-pos": tmp_path / "pos" / "train.tsv",
        "conll2000": tmp_path / "chunk" / "train.txt",
        "conll2003": tmp_path / "ner" / "train.conll",
    }
    for converter, path in files.items():
        docs = list(CONVERTERS[converter](path, Vocab()))
        assert len(docs) == len(expected), converter
        for doc, s in zip(docs, expected):
            assert [t.text for t in doc] == s.words
            assert [t.tag_ for t in doc] == s.tags
            if converter != "wsj-pos":
                chunks = [(sp.label_, sp.start, sp.end) for sp in doc.spans["chunks"]]
                assert chunks == iob2_spans(s.chunks)
            if converter == "conll2003":
                assert [(e.label_, e.start, e.end) for e in doc.ents] == iob2_spans(s.ents)
    assert (tmp_path / "ner" / "train.conll").read_text().startswith("-DOCSTART-")


def test_srl_sentences_round_trip_through_the_conll2005_converter(make_data, tmp_path):
    train, dev = make_data.generate_srl(seed=3, n_train=300, n_dev=50)
    assert len(train) == 300 and len(dev) == 50
    assert not {tuple(s.words) for s in train} & {tuple(s.words) for s in dev}
    assert make_data.generate_srl(3, 20, 5)[0] == make_data.generate_srl(3, 20, 5)[0]
    roles = Counter(role for s in train for role, _, _ in s.arguments)
    assert {"A0", "A1", "A2", "V", "AM-TMP", "AM-LOC", "AM-MOD"} <= set(roles), roles
    nlp = English()
    for s in train:
        assert s.tags[s.predicate].startswith("VB") and s.tags[-1] == "."
        assert [t.text for t in nlp.make_doc(" ".join(s.words))] == s.words
    make_data.write_srl(train, tmp_path, "train")
    docs = list(CONVERTERS["conll2005"](tmp_path / "srl" / "train.txt", Vocab()))
    assert len(docs) == len(train)
    for doc, s in zip(docs, train):
        assert [t.text for t in doc] == s.words and [t.tag_ for t in doc] == s.tags
        assert [(p.start, p.label_) for p in doc.spans["srl_predicates"]] == [
            (s.predicate, s.lemma)
        ]
        frame = doc.spans[f"srl:{s.predicate}"]
        assert [(a.label_, a.start, a.end) for a in frame] == s.arguments


def test_project_files_are_consistent():
    config = spacy.util.load_config(PROJECT / "configs" / "assemble.cfg", interpolate=False)
    assert config["nlp"]["pipeline"] == ["senna_tagger", "senna_chunker", "senna_ner", "senna_srl"]
    assert all("source" in config["components"][name] for name in config["nlp"]["pipeline"])
    project = srsly.read_yaml(PROJECT / "project.yml")
    names = {c["name"] for c in project["commands"]}
    assert set(project["workflows"]["all"]) <= names
    for command in project["commands"]:
        for dep in command.get("deps", []):
            if dep.startswith("../"):
                assert (PROJECT / dep).resolve().is_file(), dep


def test_annotate_describes_chunks_entities_and_frames_with_scores(load_script):
    annotate = load_script(SCRIPTS / "annotate.py")
    assert annotate.sentences("Anna left. Bob came.") == ["Anna left.", "Bob came."]
    nlp = English()
    doc = nlp.make_doc("Anna Smith left Paris")
    doc.spans["chunks"] = [Span(doc, 0, 2, "NP"), Span(doc, 2, 3, "VP"), Span(doc, 3, 4, "NP")]
    doc.spans["chunks"].attrs["scores"] = [0.9, 1.0, 0.5]
    doc.ents = [doc.char_span(0, 10, "PER"), doc.char_span(16, 21, "LOC")]
    doc.spans["senna_ents"] = list(doc.ents)
    doc.spans["senna_ents"].attrs["scores"] = [0.75, 1.0]
    doc.spans["srl:2"] = [Span(doc, 0, 2, "A0"), Span(doc, 2, 3, "V"), Span(doc, 3, 4, "A1")]
    doc.spans["srl:2"].attrs["scores"] = [0.5, 1.0, 0.25]
    lines = annotate.describe(doc)
    assert "[NP Anna Smith] 0.90 [VP left] 1.00 [NP Paris] 0.50" in lines[2]
    assert lines[3] == "  entities: Anna Smith (PER 0.75), Paris (LOC 1.00)"
    assert lines[4] == "  frame of 'left': [A0 Anna Smith] 0.50 [V left] 1.00 [A1 Paris] 0.25"


def test_summarize_reads_evaluate_and_meta_json(tmp_path, load_script):
    summarize = load_script(SCRIPTS / "summarize.py")
    (tmp_path / "metrics").mkdir()
    (tmp_path / "metrics" / "tagger.json").write_text('{"tag_acc": 0.97}')
    meta = tmp_path / "training" / "chunker" / "model-best" / "meta.json"
    meta.parent.mkdir(parents=True)
    meta.write_text('{"performance": {"spans_chunks_f": 0.99}}')
    rows = dict(summarize.summarize(tmp_path / "metrics", tmp_path / "training"))
    assert rows["senna_tagger alone: POS accuracy"] == 0.97
    assert rows["senna_chunker alone, gold POS: chunk F1"] == 0.99
    assert rows["pipeline: entity F1"] is None
