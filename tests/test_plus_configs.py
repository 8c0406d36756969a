"""configs/plus/: each is its faithful config plus the character feature (srl-plus also
swaps the network for the predicate BiLSTM), and builds, initializes (word table from
`paths.vectors`), updates and tags on a tiny fixture; `spacy train` runs ner-plus.cfg for a
few steps (slow)."""

import subprocess
import sys
from pathlib import Path

import numpy
import pytest
import spacy
from spacy.lang.en import English
from spacy.tokens import Doc, DocBin, Span
from spacy.training import Example
from spacy.util import load_config

import spacy_senna  # noqa: F401
from spacy_senna.corpora.readers import copy_inputs
from spacy_senna.models.senna_model import get_net

CONFIGS = Path(__file__).resolve().parent.parent / "configs"

# plus config, the faithful config it extends, its component, its input widths
PLUS = [
    ("pos-plus.cfg", "pos.cfg", "senna_tagger", 50 + 5 + 5 + 30),
    ("chunk-plus.cfg", "chunk.cfg", "senna_chunker", 50 + 5 + 5 + 30),
    ("ner-plus.cfg", "ner-gazetteer.cfg", "senna_ner", 50 + 5 + 4 * 5 + 30),
]
VECTOR = numpy.linspace(-1, 1, 50, dtype="float32")


# settings a plus config tunes on its dev set (BENCHMARKS.md), away from the faithful config
# (or that the faithful config does not have)
NER_MODEL = ("components", "senna_ner", "model")
TUNED = {
    "pos-plus.cfg": {
        ("components", "senna_tagger", "model", "lstm_width"): 100,
        ("components", "senna_tagger", "model", "lstm_window"): False,
        ("components", "senna_tagger", "model", "input_dropout"): 0.3,
        ("training", "dropout"): 0.3,
        ("training", "max_epochs"): 12,
        ("components", "senna_tagger", "model", "inference_dtype"): "bfloat16",
    },
    "chunk-plus.cfg": {
        ("components", "senna_chunker", "model", "lstm_width"): 100,
        ("components", "senna_chunker", "model", "inference_dtype"): "bfloat16",
    },
    "ner-plus.cfg": {
        ("training", "optimizer", "learn_rate"): 0.002,
        (*NER_MODEL, "inference_dtype"): "bfloat16",
        (*NER_MODEL, "doc_context"): True,
        (*NER_MODEL, "context_dropout"): 0.5,
        (*NER_MODEL, "lstm_width"): 100,
        # documents kept whole, for the document context
        ("corpora", "train", "@readers"): "spacy-senna.Corpus.v1",
        ("corpora", "train", "copy_attrs"): [],
        ("corpora", "dev", "@readers"): "spacy-senna.Corpus.v1",
        ("corpora", "dev", "copy_attrs"): [],
    },
}
NOT_SET = object()


@pytest.mark.parametrize("plus, faithful, component, _", PLUS)
def test_plus_config_is_the_faithful_one_with_the_character_feature(plus, faithful, component, _):
    config = load_config(CONFIGS / "plus" / plus)
    reference = load_config(CONFIGS / faithful)
    features = config["components"][component]["model"]["features"]
    chars = features.pop("chars")
    assert chars["@misc"] == "spacy-senna.CharFeature.v1"
    for (*section, key), tuned in TUNED.get(plus, {}).items():
        settings, faithful_settings = config, reference
        for name in section:
            settings, faithful_settings = settings[name], faithful_settings[name]
        faithful_value = faithful_settings.get(key, NOT_SET)
        assert settings.pop(key) == tuned != faithful_value
        if faithful_value is not NOT_SET:
            settings[key] = faithful_value
    assert config == reference


@pytest.fixture(scope="module")
def vectors_dir(tmp_path_factory):
    """A pipeline whose only content is 50-dimensional vectors (as pretrain-lm writes)."""
    nlp = English()
    for word in ("john", "paris", "cat", "green"):
        nlp.vocab.set_vector(word, VECTOR)
    path = tmp_path_factory.mktemp("vectors") / "lm"
    nlp.to_disk(path)
    return path


def examples_for(component, nlp, tagger_examples, span_examples):
    if component == "senna_tagger":
        return tagger_examples(nlp)
    examples = span_examples(nlp)
    for eg in examples:  # gold POS on the inputs, as spacy-senna.Corpus.v1 provides them
        copy_inputs(eg, ["tag_"])
    return examples


@pytest.mark.parametrize("plus, _, component, input_width", PLUS)
def test_plus_config_builds_initializes_and_tags(
    plus, _, component, input_width, vectors_dir, tmp_path, tagger_examples, span_examples
):
    gazetteer = tmp_path / "gazetteer.lst"
    gazetteer.write_text("PER John Smith\nLOC Paris\nLOC Berlin\n", encoding="utf8")
    overrides = {"paths.vectors": str(vectors_dir)}
    # the corpora are not read here, but spacy-senna.Corpus.v1 wants a path
    overrides.update({"paths.train": str(tmp_path / "train"), "paths.dev": str(tmp_path / "dev")})
    if component == "senna_ner":
        overrides["paths.gazetteer"] = str(gazetteer)
    config = load_config(CONFIGS / "plus" / plus, overrides)
    nlp = spacy.util.load_model_from_config(config, auto_fill=True)
    examples = examples_for(component, nlp, tagger_examples, span_examples)
    optimizer = nlp.initialize(lambda: examples)
    model = nlp.get_pipe(component).model
    net = get_net(model).emission_net
    assert net.lookup.width == input_width and len(net.lookup.chars) == 1
    word = model.attrs["featurizer"].features["word"].lexicons[0]
    table = net.lookup.tables[0].weight.detach().cpu().numpy()
    assert numpy.allclose(table[word.get("paris")], VECTOR)
    losses = {}
    nlp.update(examples, sgd=optimizer, losses=losses)
    assert losses[component] > 0
    docs = list(nlp.pipe(eg.predicted.copy() for eg in examples))
    annotated = {
        "senna_tagger": lambda doc: all(t.tag_ for t in doc),
        "senna_chunker": lambda doc: "chunks" in doc.spans,
        "senna_ner": lambda doc: "senna_ents" in doc.spans,
    }[component]
    assert all(annotated(doc) for doc in docs)


@pytest.mark.slow
def test_spacy_train_runs_the_ner_plus_config(tmp_path, vectors_dir, span_examples):
    nlp = English()
    DocBin(docs=[eg.reference for eg in span_examples(nlp)] * 3).to_disk(tmp_path / "ner.spacy")
    gazetteer = tmp_path / "gazetteer.lst"
    gazetteer.write_text("PER John Smith\nLOC Paris\n", encoding="utf8")
    out = tmp_path / "out"
    options = {
        "paths.train": tmp_path / "ner.spacy",
        "paths.dev": tmp_path / "ner.spacy",
        "paths.vectors": vectors_dir,
        "paths.gazetteer": gazetteer,
        "training.max_steps": 4,
        "training.eval_frequency": 2,
        "output": out,
    }
    cmd = [sys.executable, "-m", "spacy", "train", str(CONFIGS / "plus" / "ner-plus.cfg")]
    cmd += [arg for key, value in options.items() for arg in (f"--{key}", str(value))]
    subprocess.run(cmd, check=True, capture_output=True, cwd=tmp_path)
    loaded = spacy.load(out / "model-last")
    features = loaded.config["components"]["senna_ner"]["model"]["features"]
    assert features["chars"]["@misc"] == "spacy-senna.CharFeature.v1"
    doc = loaded("Mary saw John Smith in Paris")
    assert "senna_ents" in doc.spans


def test_srl_plus_is_srl_pt0_with_the_bilstm_characters_and_dropout():
    config = load_config(CONFIGS / "plus" / "srl-plus.cfg")
    reference = load_config(CONFIGS / "srl-pt0.cfg")
    model = config["components"]["senna_srl"]["model"]
    faithful_model = reference["components"]["senna_srl"]["model"]
    assert model["@architectures"] == "spacy-senna.PredicateBiLSTM.v1"
    assert model["features"].pop("chars")["@misc"] == "spacy-senna.CharFeature.v1"
    assert model["features"] == faithful_model["features"]
    assert config["training"].pop("dropout") == 0.2 and reference["training"].pop("dropout") == 0
    del config["components"]["senna_srl"]["model"], reference["components"]["senna_srl"]["model"]
    assert config == reference


def test_srl_plus_netpt0_is_srl_pt0_netpt0_with_srl_plus_training():
    """The continuation on the PT0 network's segments: srl-pt0-netpt0.cfg (source, data,
    schedule) with srl-plus's dropout, gradient accumulation and memory trimming."""
    config = load_config(CONFIGS / "plus" / "srl-plus-netpt0.cfg")
    reference = load_config(CONFIGS / "srl-pt0-netpt0.cfg")
    plus = load_config(CONFIGS / "plus" / "srl-plus.cfg")
    for key in ("dropout", "accumulate_gradient", "before_update"):
        assert config["training"].pop(key) == plus["training"][key]
        reference["training"].pop(key)
    assert config == reference


def test_srl_plus_builds_initializes_and_labels(vectors_dir, tmp_path, srl_reference_doc):
    overrides = {"paths.vectors": str(vectors_dir)}
    overrides.update({"paths.train": str(tmp_path / "train"), "paths.dev": str(tmp_path / "dev")})
    config = load_config(CONFIGS / "plus" / "srl-plus.cfg", overrides)
    config["initialize"]["components"] = {}  # no training corpus to read: the examples below
    nlp = spacy.util.load_model_from_config(config, auto_fill=True)
    words, tags = (
        "John saw the green cat in Paris".split(),
        ["NNP", "VBD", "DT", "JJ", "NN", "IN", "NNP"],
    )
    frames = {1: [("A0", 0, 1), ("V", 1, 2), ("A1", 2, 5), ("AM-LOC", 5, 7)]}
    reference = srl_reference_doc(nlp.vocab, words, tags, frames)
    reference.spans["pt0"] = [Span(reference, 0, 1, "NP"), Span(reference, 2, 5, "NP")]
    example = Example(Doc(nlp.vocab, words=words), reference)
    copy_inputs(example, [], ["srl_predicates", "pt0"])
    optimizer = nlp.initialize(lambda: [example])
    net = get_net(nlp.get_pipe("senna_srl").model).emission_net
    word = nlp.get_pipe("senna_srl").model.attrs["featurizer"].features["word"].lexicons[0]
    table = net.lookup.tables[0].weight.detach().cpu().numpy()
    assert numpy.allclose(table[word.get("paris")], VECTOR)
    assert len(net.layers) == 2 and len(net.lookup.chars) == 1
    losses = {}
    nlp.update([example], sgd=optimizer, losses=losses)
    assert losses["senna_srl"] > 0
    doc = nlp(example.predicted.copy())
    assert [frame.predicate.i for frame in doc._.srl_frames] == [1]


@pytest.mark.parametrize("folder", ["plus", "open"])
def test_srl_heads_is_srl_plus_with_each_sentence_encoded_once(folder):
    """srl-heads.cfg: srl-plus.cfg (features, data, schedule) with the predicate heads
    network, whose encoder has the BiLSTM's layers."""
    heads = load_config(CONFIGS / folder / "srl-heads.cfg")
    plus = load_config(CONFIGS / folder / "srl-plus.cfg")
    model = heads["components"]["senna_srl"]["model"]
    assert model.pop("@architectures") == "spacy-senna.PredicateHeads.v1"
    assert plus["components"]["senna_srl"]["model"].pop("@architectures") == (
        "spacy-senna.PredicateBiLSTM.v1"
    )
    assert [model.pop(key) for key in ("projection_width", "head_width", "head_depth")] == [
        64,
        100,
        1,
    ]
    assert heads == plus
