"""pt_senna, spacy-senna's Portuguese pipeline: its own distribution (packages/pt_senna),
loadable by name, within its size budget, with its card and open sources; on Portuguese text
it splits contractions into the treebank's words and gives UPOS, lemmas, chunks, entities and
frames as recorded (tests/data/pt_senna_expected.json, written by
projects/open/scripts/expected_outputs.py), the same through nlp.pipe, after save/load and in
`annotate`'s SENNA columns."""

import importlib.util
import json
import os
import subprocess
import sys
import warnings
from pathlib import Path

import pytest
import spacy

import spacy_senna
from spacy_senna.corpora.converters.ud import MULTIWORD_KEY

REPOSITORY = Path(__file__).resolve().parent.parent
PACKAGE = REPOSITORY / "packages" / "pt_senna"
EXPECTED = json.loads(
    (Path(__file__).parent / "data" / "pt_senna_expected.json").read_text(encoding="utf8")
)
#: the issue's budget for the pipeline's files
MAX_BYTES = 25 * 2**20


def pipeline_path() -> Path:
    """pt_senna's files: the installed distribution's, else this checkout's."""
    spec = importlib.util.find_spec("pt_senna")
    if spec is None:
        if os.environ.get("SPACY_SENNA_TEST_INSTALLED"):
            pytest.fail("pt_senna is not installed: install packages/pt_senna (README)")
        return PACKAGE / "pt_senna" / "pipeline"
    return Path(spec.origin).parent / "pipeline"


@pytest.fixture(scope="module")
def nlp():
    return spacy.load(pipeline_path())


@pytest.fixture(scope="module")
def annotations(load_script):
    script = REPOSITORY / "projects" / "open" / "scripts" / "expected_outputs.py"
    return load_script(script).annotations


def test_size_budget():
    size = sum(f.stat().st_size for f in pipeline_path().rglob("*") if f.is_file())
    assert size <= MAX_BYTES, f"pt_senna is {size / 2**20:.1f} MiB, over 25 MiB"


def test_model_card_and_meta(nlp):
    meta = nlp.meta
    assert meta["lang"] == "pt" and meta["name"] == "senna"
    assert meta["license"] == "CC BY-SA 4.0" and meta["version"] == spacy_senna.__version__
    sources = " ".join(meta["sources"])
    for source in ("Bosque", "Universal NER", "Universal PropBank", "ELTeC"):
        assert source in sources
    for research_only in ("CoNLL", "HAREM", "Penn Treebank"):
        assert research_only not in sources
    card = (pipeline_path() / "README.md").read_text(encoding="utf8")
    assert "CC BY-SA 4.0" in card and "not good at" in card and "UPOS" in card


def test_components(nlp):
    assert nlp.pipe_names == [
        "sentencizer",
        "senna_tagger",
        "attribute_ruler",  # pos_ from the UPOS tags
        "lemmatizer",  # tables learnt from Bosque's lemmas
        "senna_chunker",
        "senna_ner",
        "senna_srl",
    ]
    assert nlp.vocab.vectors.shape[0] == 0


def test_labels_as_recorded(nlp, annotations):
    assert [annotations(nlp(item["text"])) for item in EXPECTED] == EXPECTED


def test_contractions_split_into_the_treebanks_words_and_keep_their_surface(nlp):
    doc = nlp("O presidente do Brasil chegou ao Porto.")
    assert [t.text for t in doc] == "O presidente de o Brasil chegou a o Porto .".split()
    assert doc.user_data[MULTIWORD_KEY] == [[2, 4, "do"], [6, 8, "ao"]]


def test_tags_pos_and_lemmas_a_reader_can_check(nlp):
    doc = nlp("Os alunos da universidade compraram livros novos em Lisboa.")
    by_text = {t.text: t for t in doc}
    assert by_text["alunos"].tag_ == "NOUN" and by_text["compraram"].tag_ == "VERB"
    assert all(t.pos_ == t.tag_ for t in doc)
    lemmas = {t.text: t.lemma_ for t in doc}
    assert lemmas["alunos"] == "aluno" and lemmas["compraram"] == "comprar"
    assert lemmas["Os"] == "o" and lemmas["Lisboa"] == "Lisboa"
    assert ("Lisboa", "LOC") in {(e.text, e.label_) for e in doc.ents}
    (frame,) = [f for f in doc._.srl_frames if f.predicate.text == "compraram"]
    assert {a.label_ for a in frame.arguments} >= {"A0", "A1"}


def test_pipe_save_and_load_give_the_same_labels(nlp, annotations, tmp_path):
    texts = [item["text"] for item in EXPECTED] + ["", "   ", "Lisboa."]
    expected = [annotations(nlp(text)) for text in texts]
    assert [annotations(doc) for doc in nlp.pipe(texts, batch_size=3)] == expected
    nlp.to_disk(tmp_path / "pt_senna")
    loaded = spacy.load(tmp_path / "pt_senna")
    assert [annotations(doc) for doc in loaded.pipe(texts)] == expected


def test_annotate_writes_senna_columns_for_portuguese(tmp_path):
    pipeline = "pt_senna" if importlib.util.find_spec("pt_senna") else str(pipeline_path())
    result = subprocess.run(
        [sys.executable, "-m", "spacy_senna", "annotate", "--pipeline", pipeline],
        input=EXPECTED[0]["text"] + "\n",
        capture_output=True,
        text=True,
        timeout=600,
        cwd=tmp_path,  # outside the checkout: the installed spacy_senna
    )
    assert result.returncode == 0, result.stderr
    rows = [line.split("\t") for line in result.stdout.strip().split("\n")]
    assert [row[0].strip() for row in rows] == EXPECTED[0]["tokens"]
    assert [row[1].strip() for row in rows] == EXPECTED[0]["tags"]


def test_pt_senna_distribution_pins_this_version():
    import tomllib

    project = tomllib.loads((PACKAGE / "pyproject.toml").read_text(encoding="utf8"))["project"]
    assert project["version"] == spacy_senna.__version__
    assert project["dependencies"] == [f"spacy-senna=={spacy_senna.__version__}"]


def test_whitespace_and_empty_text_get_space_and_no_warning(nlp):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        doc = nlp("Olá   mundo.\n\nLisboa")
        assert len(nlp("")) == 0
    assert [(t.tag_, t.pos_) for t in doc if t.is_space] == [("_SP", "SPACE")] * 2
    assert [t.lemma_ for t in doc if not t.is_space] == ["olá", "mundo", ".", "Lisboa"]
