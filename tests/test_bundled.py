"""The bundled pipeline, en_senna: shipped inside the package, loadable by name, its labels
on a few sentences as recorded (tests/data/en_senna_expected.json, written by
projects/open/scripts/expected_outputs.py), nlp.pipe equal to nlp(), within its size budget,
and the default of `annotate`."""

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import spacy
from spacy.tokens import Doc

import spacy_senna
from spacy_senna.bundled import BUNDLED_NAME, bundled_path, load, resolve_pipeline
from spacy_senna.cli import main

EXPECTED = json.loads(
    (Path(__file__).parent / "data" / "en_senna_expected.json").read_text(encoding="utf8")
)
REPOSITORY = Path(__file__).resolve().parent.parent
#: the issue's budget for the pipeline's files
MAX_BYTES = 25 * 2**20


@pytest.fixture(scope="module")
def nlp():
    return load()


@pytest.fixture(scope="module")
def nlp_parse():
    """en_senna with its parser, which it keeps disabled, enabled."""
    nlp = load()
    nlp.enable_pipe("senna_parser")
    return nlp


@pytest.fixture(scope="module")
def annotations(load_script):
    """The `annotations` of projects/open/scripts/expected_outputs.py, which wrote the
    recorded labels."""
    script = REPOSITORY / "projects" / "open" / "scripts" / "expected_outputs.py"
    return load_script(script).annotations


def test_bundled_pipeline_ships_inside_the_installed_package():
    path = bundled_path()
    assert path.parent.parent == Path(spacy_senna.__file__).parent
    assert (path / "config.cfg").is_file() and (path / "README.md").is_file()
    if os.environ.get("SPACY_SENNA_TEST_INSTALLED"):
        assert REPOSITORY not in path.parents  # the wheel's copy, not the checkout's


def test_size_budget():
    size = sum(f.stat().st_size for f in bundled_path().rglob("*") if f.is_file())
    assert size <= MAX_BYTES, f"en_senna is {size / 2**20:.1f} MiB, over 25 MiB"


def test_model_card_and_meta(nlp):
    meta = nlp.meta
    assert meta["lang"] == "en" and meta["name"] == "senna"
    assert meta["license"] == "CC BY-SA 4.0"
    assert meta["version"] == spacy_senna.__version__
    sources = " ".join(meta["sources"])
    for source in ("UD English-EWT", "PropBank", "Universal NER", "Wikipedia"):
        assert source in sources
    for research_only in ("CoNLL", "Reuters", "Penn Treebank", "WSJ"):
        assert research_only not in sources
    assert {"pos", "ner", "chunk", "srl_predicted_predicates", "parse"} <= set(meta["performance"])
    card = (bundled_path() / "README.md").read_text(encoding="utf8")
    assert "CC BY-SA 4.0" in card and "not good at" in card


def test_components_and_no_vectors(nlp):
    assert nlp.pipe_names == [
        "sentencizer",
        "senna_words",
        "senna_tagger",
        "attribute_ruler",  # pos_ and morph from the tags (tests/test_bundled_attributes.py)
        "lemmatizer",
        "senna_chunker",
        "senna_ner",
        "senna_srl",
    ]
    assert nlp.component_names == [*nlp.pipe_names, "senna_parser"]  # disabled: on request
    assert nlp.disabled == ["senna_parser"]
    assert nlp.vocab.vectors.shape[0] == 0  # the word tables keep their rows, not the LM's


def test_labels_as_recorded(nlp_parse, annotations):
    assert [annotations(nlp_parse(item["text"])) for item in EXPECTED] == EXPECTED


def test_the_parser_is_off_by_default_and_changes_no_other_layer(nlp, annotations):
    without_parse = [{k: v for k, v in item.items() if k != "parse"} for item in EXPECTED]
    assert [annotations(nlp(item["text"])) for item in EXPECTED] == without_parse


def test_parse_a_reader_can_check(nlp_parse, tmp_path, capsys):
    doc = nlp_parse("Barack Obama was born in Hawaii. He visited Paris on Monday.")
    first, second = doc.sents
    assert first._.labels == ("S",) and second._.labels == ("S",)
    spans = {(s.text, s.label_) for s in doc.spans["constituents"]}
    assert {("Barack Obama", "NP"), ("in Hawaii", "PP"), ("Paris", "NP")} <= spans
    assert [c.text for c in first._.children][:2] == ["Barack Obama", "was born in Hawaii"]
    # the trees read back through `score parse`: against themselves, every bracket matches
    trees = tmp_path / "trees.txt"
    trees.write_text("".join(f"({s._.parse_string})\n" for s in doc.sents), encoding="utf8")
    main(["score", "parse", str(trees), str(trees)])
    report = capsys.readouterr().out
    assert "Bracketing FMeasure       = 100.00" in report


@pytest.mark.parametrize("text", ["Hi", "!?!", " ".join(["word"] * 499) + " ."])
def test_parse_of_hostile_sentences(nlp_parse, text):
    doc = nlp_parse(text)
    for sent in doc.sents:
        assert sent._.parse_string.startswith("(") and sent._.labels  # one root each


def test_labels_a_reader_can_check(nlp):
    doc = nlp("Barack Obama was born in Hawaii. He visited Paris with Angela Merkel on Monday.")
    ents = {(e.text, e.label_) for e in doc.ents}
    assert {("Barack Obama", "PER"), ("Paris", "LOC"), ("Angela Merkel", "PER")} <= ents
    assert len(list(doc.sents)) == 2
    by_text = {t.text: t.tag_ for t in doc}
    assert by_text["visited"] == "VBD" and by_text["with"] == "IN"
    visited = [f for f in doc._.srl_frames if f.predicate.text == "visited"]
    assert len(visited) == 1
    assert ("He", "A0") in {(a.text, a.label_) for a in visited[0].arguments}


def test_ptb_escapes_are_read_as_the_characters_they_stand_for(nlp):
    """Text tokenized the Penn Treebank way ("-LRB-", "``") gets raw text's analysis."""
    raw = '" Acme ( a maker of tools ) sold [ 3 ] plants in Ohio , " she said .'.split()
    escaped = "`` Acme -LRB- a maker of tools -RRB- sold -LSB- 3 -RSB- plants in Ohio , ''"
    escaped = (escaped + " she said .").split()
    from_raw, from_escaped = (nlp(Doc(nlp.vocab, words=words)) for words in (raw, escaped))
    assert [t.tag_ for t in from_escaped] == [t.tag_ for t in from_raw]
    assert [t.tag_ for t in from_escaped][2] == "-LRB-"
    for key in ("chunks", "senna_ents"):
        spans = [(s.start, s.end, s.label_) for s in from_raw.spans[key]]
        assert [(s.start, s.end, s.label_) for s in from_escaped.spans[key]] == spans
    frames = [[(a.start, a.end, a.label_) for a in f.arguments] for f in from_raw._.srl_frames]
    assert [
        [(a.start, a.end, a.label_) for a in f.arguments] for f in from_escaped._.srl_frames
    ] == frames


def test_pipe_equals_call(nlp_parse, annotations):
    texts = [item["text"] for item in EXPECTED] + ["", "   ", "Paris."]
    piped = [annotations(doc) for doc in nlp_parse.pipe(texts, batch_size=3)]
    assert piped == [annotations(nlp_parse(text)) for text in texts]


def test_resolves_without_the_en_senna_distribution(monkeypatch):
    monkeypatch.setattr(spacy.util, "is_package", lambda name: False)
    assert resolve_pipeline(BUNDLED_NAME) == str(bundled_path())
    assert resolve_pipeline("training/model-best") == "training/model-best"


def test_spacy_load_by_name(annotations):
    if importlib.util.find_spec(BUNDLED_NAME) is None:
        if os.environ.get("SPACY_SENNA_TEST_INSTALLED"):
            pytest.fail("en_senna is not installed: install packages/en_senna (README)")
        pytest.skip("packages/en_senna is not installed")
    nlp = spacy.load(BUNDLED_NAME)
    assert nlp.pipe_names[-1] == "senna_srl" and nlp.disabled == ["senna_parser"]
    nlp.enable_pipe("senna_parser")
    assert annotations(nlp(EXPECTED[0]["text"])) == EXPECTED[0]


def test_annotate_defaults_to_en_senna_on_stdin(tmp_path):
    # run outside the checkout: `python -m` would import spacy_senna from the current folder
    result = subprocess.run(
        [sys.executable, "-m", "spacy_senna", "annotate"],
        input=EXPECTED[0]["text"] + "\n",
        capture_output=True,
        text=True,
        timeout=600,
        cwd=tmp_path,
    )
    assert result.returncode == 0, result.stderr
    rows = [line.split("\t") for line in result.stdout.strip().split("\n")]
    assert [row[0].strip() for row in rows] == EXPECTED[0]["tokens"]
    assert [row[1].strip() for row in rows] == EXPECTED[0]["tags"]


def test_en_senna_distribution_pins_this_version():
    import tomllib

    project = tomllib.loads(
        (REPOSITORY / "packages" / "en_senna" / "pyproject.toml").read_text(encoding="utf8")
    )["project"]
    assert project["version"] == spacy_senna.__version__
    assert project["dependencies"] == [f"spacy-senna=={spacy_senna.__version__}"]
