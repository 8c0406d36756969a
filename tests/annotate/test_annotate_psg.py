"""annotate's PSG column (senna_parser's trees): SENNA's column in the senna format, the
CoNLL-2005 full-syntax column in conll, a tree string per sentence in jsonl; unary chains,
one-word sentences, whitespace tokens, several sentences, and reading the column back."""

import dataclasses
import json

import pytest
from spacy.lang.en import English
from spacy.tokens import Doc, Span
from spacy.training import Example
from spacy.util import fix_random_seed

import spacy_senna  # noqa: F401
from spacy_senna.annotate.formats import get_format
from spacy_senna.annotate.layers import Layers, pipeline_layers
from spacy_senna.annotate.loading import load_pipeline
from spacy_senna.annotate.psg import psg_column
from spacy_senna.corpora.converters.trees import tree_doc
from spacy_senna.corpora.readers import copy_inputs, gold_tokens
from spacy_senna.syntax.trees import constituents, parse_tree, tree_from_parse_bits

VOCAB = English().vocab  # with its lexical attributes (is_space)
LAYERS = Layers(tags=True, constituents_key="constituents")
# "They started to buy ." with a unary chain (S (VP to buy)), outermost first
UNARY = (
    [("They", "PRP"), ("started", "VBD"), ("to", "TO"), ("buy", "VB"), (".", ".")],
    [("S", 0, 5), ("NP", 0, 1), ("VP", 1, 4), ("S", 2, 4), ("VP", 2, 4), ("VP", 3, 4)],
)
UNARY_PSG = ["(S1(S(NP*)", "(VP*", "(S(VP*", "(VP*))))", "*))"]


def make_doc(sentences, spaces=None, key="constituents"):
    """A doc of sentences [(words and tags, spans in sentence offsets)]."""
    words, tags, starts, spans = [], [], [], []
    for tokens, sentence_spans in sentences:
        offset = len(words)
        spans += [(label, s + offset, e + offset) for label, s, e in sentence_spans]
        words += [w for w, _ in tokens]
        tags += [t for _, t in tokens]
        starts += [True] + [False] * (len(tokens) - 1)
    doc = Doc(VOCAB, words=words, spaces=spaces, tags=tags, sent_starts=starts)
    doc.spans[key] = [Span(doc, s, e, label=label) for label, s, e in spans]
    return doc


def render(name, doc, layers=LAYERS):
    doc_format = get_format(name)(layers)
    return (doc_format.add(doc) + doc_format.finish()).decode("utf8")


def blocks(name, doc, layers=LAYERS):
    """Per sentence, its rows split on tabs and stripped."""
    out = render(name, doc, layers)
    assert out.endswith("\n\n")
    return [
        [[field.strip() for field in line.split("\t")] for line in block.split("\n")]
        for block in out[:-2].split("\n\n")
    ]


def read_back(words, tags, column):
    """The column with `*` replaced by `(TAG word)`, parsed; the constituents under S1."""
    text = "".join(
        bit.replace("*", f"({tag} {word})") for word, tag, bit in zip(words, tags, column)
    )
    tree = parse_tree(text)
    assert tree.label == "S1"
    assert tree_from_parse_bits(words, tags, column) == tree
    return constituents(tree.children)


def test_unary_chain_in_senna_and_conll():
    doc = make_doc([UNARY])
    lines = render("senna", doc).split("\n")
    assert lines[0] == "They".rjust(15) + "\t" + "PRP".rjust(10) + "\t(S1(S(NP*)"
    assert lines[3] == "buy".rjust(15) + "\t" + "VB".rjust(10) + "\t(VP*))))"
    expected = [[w, t, psg] for (w, t), psg in zip(UNARY[0], UNARY_PSG)]
    assert blocks("senna", doc) == [expected]
    conll = "".join(f"{w}\t{t}\t{psg}\n" for w, t, psg in expected) + "\n"
    assert render("conll", doc) == conll


def test_one_word_sentences():
    assert blocks("senna", make_doc([([("Hello", "UH")], [("INTJ", 0, 1)])])) == [
        [["Hello", "UH", "(S1(INTJ*))"]]
    ]
    # no constituent spans the sentence: SENNA's (S ...) under the root
    assert blocks("conll", make_doc([([("Hello", "UH")], [])])) == [[["Hello", "UH", "(S1(S*))"]]]
    assert psg_column([(0, 2, "NP"), (2, 3, "VP")], 3) == ["(S1(S(NP*", "*)", "(VP*)))"]


def test_whitespace_tokens_do_not_break_the_brackets():
    tokens = [("John", "NNP"), ("  ", "_SP"), ("left", "VBD"), ("\n", "_SP"), (".", ".")]
    # VP starts at a whitespace token, X holds only one: the column covers the other tokens
    spans = [("S", 0, 5), ("NP", 0, 1), ("VP", 1, 4), ("X", 3, 4)]
    doc = make_doc([(tokens, spans)], spaces=[False] * 5)
    assert doc[1].is_space and doc[3].is_space
    rows = [["John", "NNP", "(S1(S(NP*)"], ["left", "VBD", "(VP*)"], [".", ".", "*))"]]
    assert blocks("senna", doc) == blocks("conll", doc) == [rows]
    words, tags, column = zip(*rows)
    assert read_back(words, tags, column) == [("S", 0, 3), ("NP", 0, 1), ("VP", 1, 2)]
    record = json.loads(render("jsonl", doc))
    assert record["parse"] == ["(S (NP (NNP John)) (VP (VBD left)) (. .))"]


def test_two_sentences_each_with_its_root():
    cat = (
        [("The", "DT"), ("cat", "NN"), ("sat", "VBD")],
        [("S", 0, 3), ("NP", 0, 2), ("VP", 2, 3)],
    )
    doc = make_doc([cat, UNARY])
    assert [[row[2] for row in block] for block in blocks("senna", doc)] == [
        ["(S1(S(NP*", "*)", "(VP*)))"],
        UNARY_PSG,
    ]
    record = json.loads(render("jsonl", doc))
    assert record["sents"] == [[0, 3], [3, 8]]
    assert record["parse"] == [sent._.parse_string for sent in doc.sents]
    assert record["parse"][0] == "(S (NP (DT The) (NN cat)) (VP (VBD sat)))"


def test_column_reads_back_to_the_constituents():
    doc = make_doc([UNARY, UNARY])
    for block, sent in zip(blocks("conll", doc), doc.sents):
        words, tags, column = zip(*block)
        expected = [
            (s.label_, s.start - sent.start, s.end - sent.start)
            for s in doc.spans["constituents"]
            if sent.start <= s.start < sent.end
        ]
        assert read_back(words, tags, column) == expected == UNARY[1]


def test_crossing_and_outside_spans_are_left_out():
    tokens = [("a", "DT"), ("b", "NN"), ("c", "NN")]
    doc = make_doc([(tokens, [("S", 0, 3), ("X", 0, 2), ("Y", 1, 3)])])
    assert [row[2] for row in blocks("senna", doc)[0]] == ["(S1(S(X*", "*)", "*))"]


def test_a_sentence_without_constituents_gets_the_root_only():
    doc = make_doc([([("a", "DT"), ("b", "NN")], [])])
    del doc.spans["constituents"]  # the group missing altogether: the same
    assert [row[2] for row in blocks("conll", doc)[0]] == ["(S1(S*", "*))"]
    assert json.loads(render("jsonl", doc))["parse"] == ["( (DT a) (NN b))"]


@pytest.mark.parametrize("name", ["senna", "conll", "jsonl"])
def test_no_parser_no_psg(name):
    doc = make_doc([UNARY])
    out = render(name, doc, Layers(tags=True))
    if name == "jsonl":
        assert "parse" not in json.loads(out)
    else:
        assert all(len(row) == 2 for row in blocks(name, doc, Layers(tags=True))[0])


def test_parser_component_is_a_layer():
    nlp = English()
    nlp.add_pipe("senna_parser")
    assert pipeline_layers(nlp) == Layers(constituents_key="constituents")
    other = English()
    other.add_pipe("senna_tagger")
    other.add_pipe("senna_parser", config={"spans_key": "trees"})
    assert pipeline_layers(other) == Layers(tags=True, constituents_key="trees")
    doc = make_doc([UNARY], key="trees")
    layers = Layers(tags=True, constituents_key="trees")
    assert [row[2] for row in blocks("senna", doc, layers)[0]] == UNARY_PSG


def test_psg_position_among_all_layers(pipeline_dir):
    """senna: PSG last (after the SRL columns, as SENNA prints it); conll: after the chunk
    column (CoNLL-2005's words, POS, chunks, syntax, NE, props)."""
    nlp = load_pipeline(str(pipeline_dir))
    layers = dataclasses.replace(pipeline_layers(nlp), constituents_key="constituents")
    doc = nlp("Acme Corp hired Anna Lee and left London.")
    spans = [("S", 0, 9), ("NP", 0, 2), ("VP", 2, 8), ("VP", 2, 5), ("NP", 3, 5), ("VP", 6, 8)]
    doc.spans["constituents"] = [Span(doc, s, e, label=label) for label, s, e in spans]
    psg = ["(S1(S(NP*", "*)", "(VP(VP*", "(NP*", "*))", "*", "(VP*", "*))", "*))"]
    before = blocks("senna", doc, pipeline_layers(nlp))[0]
    assert blocks("senna", doc, layers)[0] == [row + [p] for row, p in zip(before, psg)]
    before = blocks("conll", doc, pipeline_layers(nlp))[0]
    assert blocks("conll", doc, layers)[0] == [r[:3] + [p] + r[3:] for r, p in zip(before, psg)]


def test_untrained_parser_in_a_pipeline_round_trips():
    """A senna_parser (initialized, not trained) writes trees; every sentence's column
    reads back to its constituents and the jsonl trees are its `parse_string`."""
    fix_random_seed(0)
    nlp = English()
    nlp.add_pipe("senna_parser")
    examples = []
    for text in ["( (S (NP (DT The) (NN cat)) (VP (VBD sat)) (. .)))", "( (INTJ (UH Hi)))"]:
        reference = tree_doc(nlp.vocab, parse_tree(text))
        eg = Example(gold_tokens(reference), reference)
        copy_inputs(eg, ["tag_"])
        examples.append(eg)
    nlp.initialize(lambda: examples)
    words = ["The", "cat", "sat", ".", "Hi", "."]
    tags = ["DT", "NN", "VBD", ".", "UH", "."]
    doc = nlp(Doc(nlp.vocab, words=words, tags=tags, sent_starts=[1, 0, 0, 0, 1, 0]))
    layers = pipeline_layers(nlp)
    assert layers.constituents_key == "constituents"
    for block, sent in zip(blocks("senna", doc, layers), doc.sents):
        words, column = [row[0] for row in block], [row[1] for row in block]
        sent_tags = [t.tag_ for t in sent]
        expected = [
            (s.label_, s.start - sent.start, s.end - sent.start)
            for s in doc.spans["constituents"]
            if sent.start <= s.start < sent.end
        ]
        assert read_back(words, sent_tags, column) == expected
    assert json.loads(render("jsonl", doc, layers))["parse"] == [
        s._.parse_string for s in doc.sents
    ]


def _pipeline_with_disabled_parser(path):
    """A pipeline saved with an initialized senna_parser it keeps disabled (as en_senna)."""
    fix_random_seed(0)
    nlp = English()
    nlp.add_pipe("senna_parser")
    reference = tree_doc(nlp.vocab, parse_tree("( (S (NP (DT The) (NN cat)) (VP (VBD sat))))"))
    eg = Example(gold_tokens(reference), reference)
    copy_inputs(eg, ["tag_"])
    nlp.initialize(lambda: [eg])
    nlp.disable_pipe("senna_parser")
    nlp.to_disk(path)
    return str(path)


def test_enable_runs_a_disabled_parser_and_gives_the_psg_column(tmp_path):
    path = _pipeline_with_disabled_parser(tmp_path / "pipeline")
    assert pipeline_layers(load_pipeline(path)).constituents_key is None
    nlp = load_pipeline(path, enable=["senna_parser"])
    assert pipeline_layers(nlp).constituents_key == "constituents"
    doc = nlp(Doc(nlp.vocab, words=["The", "cat", "sat"], tags=["DT", "NN", "VBD"]))
    column = [row[1] for row in blocks("senna", doc, pipeline_layers(nlp))[0]]
    assert column[0].startswith("(S1") and column[-1].endswith("))")


def test_enable_names_a_component_the_pipeline_lacks(tmp_path):
    path = _pipeline_with_disabled_parser(tmp_path / "pipeline")
    with pytest.raises(ValueError, match="--enable senna_psg: the pipeline has no such"):
        load_pipeline(path, enable=["senna_psg"])


def test_annotate_enable_option_writes_trees(run_cli, write, tmp_path, capsysbinary):
    path = _pipeline_with_disabled_parser(tmp_path / "pipeline")
    text = write("a.txt", "The cat sat\n")
    assert run_cli(path, text, "--format", "jsonl", "--pretokenized") == 0
    assert "parse" not in json.loads(capsysbinary.readouterr().out)
    assert (
        run_cli(path, text, "--format", "jsonl", "--pretokenized", "--enable", "senna_parser") == 0
    )
    assert json.loads(capsysbinary.readouterr().out)["parse"][0].startswith("(")
    assert run_cli(path, text, "--enable", "senna_psg") == 1
