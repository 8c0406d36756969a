"""Reading, cleaning and writing constituency trees (spacy_senna.syntax.trees)."""

import gzip

import pytest

from spacy_senna.syntax.trees import (
    Tree,
    bare_label,
    clean_tree,
    constituents,
    parse_tree,
    read_trees,
    tree_from_parse_bits,
    tree_from_spans,
    tree_string,
)

WSJ_STYLE = "( (S (NP-SBJ (NNP Ms.) (NNP Haag)) (VP (VBZ plays) (NP (NNP Elianti))) (. .)))"


def test_a_wsj_line_reads_into_words_tags_and_nodes():
    tree = parse_tree(WSJ_STYLE)
    assert tree.label == ""
    assert tree.words == ["Ms.", "Haag", "plays", "Elianti", "."]
    assert tree.tags == ["NNP", "NNP", "VBZ", "NNP", "."]
    assert constituents([tree]) == [
        ("", 0, 5),
        ("S", 0, 5),
        ("NP-SBJ", 0, 2),
        ("VP", 2, 4),
        ("NP", 3, 4),
    ]


def test_tree_string_writes_the_line_back():
    assert tree_string(parse_tree(WSJ_STYLE)) == WSJ_STYLE


@pytest.mark.parametrize("text", ["(S (NP (NN a))", "(S (NN a)))", "NN a", "(S )", "(S a (NN b))"])
def test_malformed_brackets_raise(text):
    with pytest.raises(ValueError):
        parse_tree(text)


def test_read_trees_names_the_line_of_a_bad_tree(tmp_path):
    path = tmp_path / "trees.mrg.gz"
    path.write_bytes(gzip.compress(b"(S (NN a))\n\n(S (NN b)\n"))
    with pytest.raises(ValueError, match="trees.mrg.gz:3"):
        list(read_trees(path))


@pytest.mark.parametrize(
    "label,bare",
    [
        ("NP-SBJ-1", "NP"),
        ("NP=2", "NP"),
        ("-NONE-", "-NONE-"),
        ("-LRB-", "-LRB-"),
        ("PRT|ADVP", "PRT|ADVP"),
        ("S", "S"),
    ],
)
def test_bare_label_cuts_like_evalb(label, bare):
    assert bare_label(label) == bare


def test_clean_tree_drops_empty_elements_function_tags_and_the_wrapper():
    tree = parse_tree("( (S (NP-SBJ (-NONE- *-1)) (VP (VBD ran) (ADVP-TMP (RB today))) (. .)))")
    (top,) = clean_tree(tree)
    assert constituents([top]) == [("S", 0, 3), ("VP", 0, 2), ("ADVP", 1, 2)]


def test_parse_bits_of_a_conll_column_make_the_tree():
    tree = tree_from_parse_bits(
        ["From", "the", "AP", "comes"],
        ["IN", "DT", "NNP", "VBZ"],
        ["(TOP(SINV(PP*", "(NP*", "*))", "(VP*)))"],
    )
    assert tree_string(tree) == (
        "(TOP (SINV (PP (IN From) (NP (DT the) (NNP AP))) (VP (VBZ comes))))"
    )


def test_tree_from_spans_nests_unary_chains_outermost_first():
    tree = tree_from_spans(
        ["He", "left", "."],
        ["PRP", "VBD", "."],
        [("S", 0, 3), ("NP", 0, 1), ("SBAR", 1, 2), ("S", 1, 2), ("VP", 1, 2)],
    )
    assert tree_string(tree) == ("( (S (NP (PRP He)) (SBAR (S (VP (VBD left)))) (. .)))")
    assert tree_from_spans(["a"], ["DT"], [("NP", 0, 1)], root=None) == Tree(
        "NP", (Tree("DT", word="a"),)
    )


def test_tree_from_spans_rejects_crossing_spans():
    with pytest.raises(ValueError, match="crosses"):
        tree_from_spans(["a", "b", "c"], ["X"] * 3, [("A", 0, 2), ("B", 1, 3)])
