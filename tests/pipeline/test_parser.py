"""senna_parser: overfits two tiny trees (window, sentence and level-heads networks), save/load,
nlp.pipe == nlp(), sentences of 1 and 500 tokens, punctuation only, an unseen label, and
benepar's span attributes."""

import warnings
from pathlib import Path

import pytest
import spacy
import torch
from spacy.lang.en import English
from spacy.tokens import Doc, DocBin
from spacy.training import Example
from spacy.util import fix_random_seed, load_config, load_model_from_config
from spacy.vocab import Vocab

import spacy_senna  # noqa: F401
from spacy_senna.corpora.converters.trees import tree_doc
from spacy_senna.corpora.readers import copy_inputs, gold_tokens
from spacy_senna.models.senna_model import get_net
from spacy_senna.models.sentence_encodings import encodings_kept
from spacy_senna.models.sequences import featurize_levels
from spacy_senna.pipeline import sentence_parses
from spacy_senna.pipeline.parser import DEFAULT_PARSER_MODEL
from spacy_senna.syntax.constituents import doc_constituents, sentence_trees
from spacy_senna.syntax.trees import parse_tree, tree_string

CONFIGS = Path(__file__).resolve().parents[2] / "configs"
TREES = [
    "( (S (NP (DT The) (NN cat)) (VP (VBD sat) (PP (IN on) (NP (DT the) (NN mat)))) (. .)))",
    "( (S (NP (PRP They)) (VP (VBP are) (VP (VBG starting) (S (VP (TO to) (VP (VB buy)"
    " (NP (NN growth) (NNS stocks))))))) (. .)))",
]
# configs/parser.cfg's network (SRL's sentence network)
SENTENCE_NETWORK = {
    "model": {
        **DEFAULT_PARSER_MODEL,
        "@architectures": "spacy-senna.SentenceTagger.v1",
        "conv_width": 300,
        "hidden_width": 500,
    }
}

# configs/plus/parser-heads.cfg's network (each sentence encoded once), small
LEVEL_HEADS = {
    "model": {
        **DEFAULT_PARSER_MODEL,
        "@architectures": "spacy-senna.LevelHeads.v1",
        "lstm_width": 50,
        "projection_width": 30,
        "head_width": 30,
        "hidden_width": 50,
    }
}


def examples_of(nlp, trees):
    out = []
    for text in trees:
        reference = tree_doc(nlp.vocab, parse_tree(text))
        eg = Example(gold_tokens(reference), reference)
        copy_inputs(eg, ["tag_"])
        out.append(eg)
    return out


def train(config=None, steps=60):
    fix_random_seed(0)
    nlp = English()
    nlp.add_pipe("senna_parser", config=config or {})
    examples = examples_of(nlp, TREES)
    optimizer = nlp.initialize(lambda: examples)
    losses = []
    for _ in range(steps):
        step = {}
        nlp.update(examples, sgd=optimizer, losses=step)
        losses.append(step["senna_parser"])
    return nlp, examples, losses


@pytest.fixture(scope="module")
def parser():
    return train()


@pytest.fixture(scope="module")
def level_heads():
    return train(LEVEL_HEADS, steps=200)


def parsed(nlp, eg):
    return nlp(eg.predicted.copy())


def test_parser_overfits_two_trees(parser):
    nlp, examples, losses = parser
    assert losses[-1] < losses[0] * 0.2
    for eg, text in zip(examples, TREES):
        assert tree_string(sentence_trees(parsed(nlp, eg))[0]) == tree_string(parse_tree(text))
    assert nlp.evaluate(examples)["parse_f"] == 1.0


def test_sentence_network_overfits_two_trees():
    nlp, examples, _ = train(SENTENCE_NETWORK, steps=80)
    assert nlp.evaluate(examples)["parse_f"] == 1.0


def test_level_heads_network_overfits_two_trees(level_heads):
    nlp, examples, _ = level_heads
    assert nlp.evaluate(examples)["parse_f"] == 1.0
    pipe = nlp.get_pipe("senna_parser")
    levels = [doc for eg in examples for doc in pipe._training_levels(eg)]
    inputs, _ = featurize_levels(pipe.model, levels)
    sentence_index, row_sentence = inputs[1], inputs[4]
    assert len(levels) > 2 and len(sentence_index) == 2  # each sentence encoded once
    assert row_sentence.tolist() == sorted(row_sentence.tolist())


def test_exploring_learns_from_the_parsers_own_levels(parser):
    """With its own parse equal to the gold tree, an explored example's levels are the gold
    ones; an untrained parser's own levels differ, and training on them still overfits."""
    nlp, examples, _ = parser
    pipe = nlp.get_pipe("senna_parser")

    def spans(levels):
        return [
            [[(s.label_, s.start, s.end) for s in doc.spans[key]] for key in keys] for doc in levels
        ]

    keys = ("senna_parse_history", "senna_parse_level")
    for eg in examples:
        own = pipe._parse([eg.predicted])[0]
        assert spans(pipe._training_levels(eg, own)) == spans(pipe._training_levels(eg))
    fix_random_seed(0)
    untrained = English()
    untrained.add_pipe("senna_parser")
    untrained.initialize(lambda: examples_of(untrained, TREES))
    eg = examples_of(untrained, TREES)[1]
    pipe = untrained.get_pipe("senna_parser")
    own = pipe._parse([eg.predicted])[0]
    assert spans(pipe._training_levels(eg, own)) != spans(pipe._training_levels(eg))
    explored, examples, losses = train({"explore": 0.5}, steps=80)
    assert losses[-1] < losses[0] * 0.2
    assert explored.evaluate(examples)["parse_f"] == 1.0


@pytest.mark.parametrize("explore", [-0.1, 1.5])
def test_explore_outside_0_to_1_is_refused(explore):
    with pytest.raises(ValueError, match="explore"):
        English().add_pipe("senna_parser", config={"explore": explore})


def test_level_heads_labelling_encodes_each_sentence_once_across_calls(level_heads):
    nlp, examples, _ = level_heads
    pipe = nlp.get_pipe("senna_parser")
    levels = [doc for eg in examples for doc in pipe._training_levels(eg)]
    encoded = []
    net = get_net(pipe.model).emission_net
    hook = net.encoder[0].register_forward_hook(lambda _, x, out: encoded.append(len(x[2])))
    try:
        plain = pipe.model.predict(levels)
        with encodings_kept(pipe.model):
            pipe.model.predict(levels[:1])
            kept = pipe.model.predict(levels)
    finally:
        hook.remove()
    assert encoded == [2, 1, 1]  # both sentences; the first; then only the second
    torch.testing.assert_close(kept.emissions, plain.emissions)
    assert kept.lengths.tolist() == plain.lengths.tolist()


def test_level_heads_label_from_arrays_as_from_level_copies(level_heads, monkeypatch):
    """A level-heads parser reads each level from arrays, no copy of the sentence per
    level: the trees are those that the level copies give."""
    nlp, examples, _ = level_heads
    pipe = nlp.get_pipe("senna_parser")
    docs = [eg.predicted.copy() for eg in examples]
    with monkeypatch.context() as patched:
        patched.setattr(type(pipe), "_level_doc", None)  # the arrays path makes none
        from_arrays = pipe.predict(docs)
    monkeypatch.setattr(sentence_parses.LevelReader, "reads", staticmethod(lambda model: False))
    assert pipe.predict(docs) == from_arrays
    assert from_arrays == [
        [(s.label_, s.start, s.end) for s in eg.reference.spans["constituents"]] for eg in examples
    ]


def test_level_heads_must_name_a_feature_of_the_model():
    with pytest.raises(ValueError, match=r"no feature\(s\) \['nodes'\]"):
        train({"model": {**LEVEL_HEADS["model"], "level_features": ["nodes"]}}, steps=1)


def test_labels_join_unary_chains_and_root_is_the_top_label(parser):
    pipe = parser[0].get_pipe("senna_parser")
    assert pipe.labels == ("NP", "PP", "S", "S::VP", "VP")
    assert pipe.cfg["root_label"] == "S"


@pytest.mark.parametrize("network", ["parser", "level_heads"])
def test_save_and_load_give_the_same_trees(network, request, tmp_path):
    nlp, examples, _ = request.getfixturevalue(network)
    nlp.to_disk(tmp_path / "pipeline")
    loaded = spacy.load(tmp_path / "pipeline")
    for eg in examples:
        assert doc_constituents(parsed(loaded, eg)) == doc_constituents(parsed(nlp, eg))


@pytest.mark.parametrize("network", ["parser", "level_heads"])
def test_pipe_equals_call(network, request):
    nlp, examples, _ = request.getfixturevalue(network)
    docs = [eg.predicted.copy() for eg in examples] * 3
    piped = list(nlp.pipe(d.copy() for d in docs))
    assert [doc_constituents(d) for d in piped] == [doc_constituents(nlp(d)) for d in docs]


def is_tree(doc):
    """One node spans the sentence, and the spans nest properly."""
    spans = doc_constituents(doc)
    if (0, len(doc)) not in {(s, e) for _, s, e in spans}:
        return False
    return all(
        e1 <= s2 or e2 <= s1 or (s1 <= s2 and e2 <= e1) or (s2 <= s1 and e1 <= e2)
        for _, s1, e1 in spans
        for _, s2, e2 in spans
    )


@pytest.mark.parametrize("n", [1, 500])
def test_sentences_of_1_and_500_tokens_get_a_tree(parser, n):
    nlp = parser[0]
    words = (["the", "cat", "sat", "on", "the", "mat", "."] * 80)[:n]
    tags = (["DT", "NN", "VBD", "IN", "DT", "NN", "."] * 80)[:n]
    doc = nlp(Doc(nlp.vocab, words=words, tags=tags))
    assert is_tree(doc)


def test_a_punctuation_only_sentence_gets_a_tree(parser):
    nlp = parser[0]
    doc = nlp(Doc(nlp.vocab, words=["...", "!"], tags=[":", "."]))
    assert is_tree(doc)


def test_every_sentence_of_a_doc_gets_its_own_tree(parser):
    nlp, examples, _ = parser
    doc = Doc.from_docs([eg.predicted.copy() for eg in examples])
    doc = nlp(doc)
    trees = [tree_string(tree) for tree in sentence_trees(doc)]
    assert trees == [tree_string(parse_tree(text)) for text in TREES]


def test_whitespace_tokens_are_not_words(parser):
    nlp = parser[0]
    words = ["The", "cat", "  ", "sat", "on", "the", "mat", "."]
    tags = ["DT", "NN", "_SP", "VBD", "IN", "DT", "NN", "."]
    doc = nlp(Doc(nlp.vocab, words=words, tags=tags))
    assert ("NP", 0, 2) in doc_constituents(doc) and ("S", 0, 8) in doc_constituents(doc)


def test_parse_string_leaves_out_whitespace_tokens(parser):
    # "(_SP \n\n)" in the string made it two lines and lost the token in a tree reader
    nlp = parser[0]
    words = ["The", "cat", "\n\n", "sat", "on", "the", "mat", ".", " "]
    tags = ["DT", "NN", "_SP", "VBD", "IN", "DT", "NN", ".", "_SP"]
    doc = nlp(Doc(nlp.vocab, words=words, tags=tags))
    parse = doc[:]._.parse_string
    assert "\n" not in parse and "_SP" not in parse
    tree = parse_tree(parse if parse.startswith("( ") else f"( {parse})")
    assert tree.words == ["The", "cat", "sat", "on", "the", "mat", "."]
    assert parse == doc[:8]._.parse_string  # the trailing space changes nothing
    assert doc[8:]._.parse_string == "( )"  # only whitespace: an empty tree


def test_an_unseen_label_is_learnt_as_missing_with_a_warning(parser):
    nlp, _, _ = parser
    unseen = examples_of(nlp, ["( (S (NP (DT The) (NN cat)) (ADVP (RB here)) (. .)))"])
    with pytest.warns(UserWarning, match="ADVP"):
        losses = nlp.update(unseen, sgd=None)
    assert losses["senna_parser"] == losses["senna_parser"]  # not NaN


def test_a_model_without_the_level_feature_is_refused():
    nlp = English()
    nlp.add_pipe("senna_parser", config={"model": {"features": {"levels": None}}})
    examples = examples_of(nlp, TREES)
    with pytest.raises(ValueError, match="senna_parse_history"):
        nlp.initialize(lambda: examples)


def test_benepar_attributes_read_the_parse(parser):
    nlp, examples, _ = parser
    doc = parsed(nlp, examples[1])
    sentence = doc[:]
    assert sentence._.labels == ("S",)
    assert sentence._.parse_string == tree_string(parse_tree(TREES[1]).children[0])
    to_buy = doc[3:7]  # (S (VP to ...)): a unary chain, one span with two labels
    assert to_buy._.labels == ("S", "VP")
    assert [c.text for c in to_buy._.children] == ["to", "buy growth stocks"]
    assert to_buy._.parent.text == "starting to buy growth stocks"
    assert sentence._.parent is None
    assert doc[1:2]._.labels == ()


def test_missing_pos_input_warns(parser):
    nlp = parser[0]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        nlp("The cat sat .")
    assert any("tag_" in str(w.message) for w in caught)


@pytest.mark.parametrize(
    "name",
    [
        "parser.cfg",
        "plus/parser-plus.cfg",
        "plus/parser-heads.cfg",
        "open/parser.cfg",
        "open/parser-heads.cfg",
    ],
)
def test_configs_build_train_and_parse(name, tmp_path):
    corpus = tmp_path / "trees.spacy"
    DocBin(docs=[tree_doc(Vocab(), parse_tree(text)) for text in TREES]).to_disk(corpus)
    overrides = {"paths.train": str(corpus), "paths.dev": str(corpus)}
    config = load_config(CONFIGS / name, overrides=overrides)
    nlp = load_model_from_config(config, auto_fill=True, validate=True)
    examples = examples_of(nlp, TREES)
    optimizer = nlp.initialize(lambda: examples)
    losses = nlp.update(examples, sgd=optimizer)
    assert losses["senna_parser"] > 0
    assert is_tree(parsed(nlp, examples[0]))
