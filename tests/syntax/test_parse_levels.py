"""SENNA's parse tree levels: a tree -> levels of chunks -> the same tree."""

import pytest

from spacy_senna.syntax.parse_levels import (
    FREE,
    NODE_END,
    NODE_INSIDE,
    NODE_START,
    ONE_WORD_NODE,
    Unit,
    add_level,
    collapse_unary,
    expand_unary,
    level_steps,
    oracle_level,
    position_classes,
    spans_from_levels,
    tree_levels,
    words_frontier,
)
from spacy_senna.syntax.trees import (
    clean_tree,
    constituents,
    parse_tree,
    tree_from_spans,
    tree_string,
)

TREES = [
    # the paper's example sentence (JMLR §6.5, Figure 6)
    "( (S (NP (DT The) (NN luxury) (NN auto) (NN maker)) (NP (JJ last) (NN year)) (VP (VBD sold)"
    " (NP (CD 1,214) (NNS cars)) (PP (IN in) (NP (DT the) (NNP U.S.))))))",
    # unary chains inside and at the top, and traces
    "( (S (NP-SBJ (PRP They)) (VP (VBP are) (VP (VBG starting) (S (NP-SBJ (-NONE- *-1)) (VP"
    " (TO to) (VP (VB buy) (NP (NN growth) (NNS stocks))))))) (. .)))",
    "( (S (VP (VB Go) (ADVP (RB away))) (. !)))",
    "( (NP (NN Hello)))",
    "( (FRAG (. ...)))",
    "( (S (NP (NP (DT the) (NN man)) (, ,) (NP (NNP John))) (VP (VBD left))))",
    "( (SBAR (S (VP (VB wait)))))",
    "( (X (NN a) (NN b) (NN c)))",
]


def round_trip(text):
    (top,) = clean_tree(parse_tree(text))
    spans = constituents([top])
    back = tree_from_spans(top.words, top.tags, spans_from_levels(tree_levels(spans)), root=None)
    return tree_string(back), tree_string(top)


@pytest.mark.parametrize("text", TREES)
def test_every_tree_round_trips(text):
    back, original = round_trip(text)
    assert back == original


def test_levels_of_the_paper_sentence():
    (top,) = clean_tree(parse_tree(TREES[0]))
    assert tree_levels(constituents([top])) == [
        [("NP", 0, 4), ("NP", 4, 6), ("NP", 7, 9), ("NP", 10, 12)],
        [("PP", 9, 12)],
        [("VP", 6, 12)],
        [("S", 0, 12)],
    ]


def test_a_unary_chain_is_one_node_with_joined_labels():
    spans = [("SBAR", 0, 1), ("S", 0, 1), ("VP", 0, 1)]
    assert collapse_unary(spans) == [("SBAR::S::VP", 0, 1)]
    assert expand_unary(collapse_unary(spans)) == spans
    (top,) = clean_tree(parse_tree(TREES[1]))
    assert ("S::VP", 3, 7) in [n for level in tree_levels(constituents([top])) for n in level]


def test_level_steps_give_each_level_its_frontier():
    steps = level_steps(3, [("S", 0, 3), ("NP", 0, 1), ("VP", 1, 3)])
    assert [step.nodes for step in steps] == [[("NP", 0, 1), ("VP", 1, 3)], [("S", 0, 3)]]
    assert steps[1].frontier == [Unit(0, 1, "NP"), Unit(1, 3, "VP")]


def test_a_tree_without_a_spanning_node_ends_with_an_empty_level():
    steps = level_steps(3, [("NP", 0, 2)])
    assert steps[-1].nodes == [] and steps[-1].frontier == [Unit(0, 2, "NP"), Unit(2, 3)]
    assert level_steps(1, [])[0].nodes == []


def test_add_level_keeps_whole_units_only():
    frontier = [Unit(0, 2, "NP"), Unit(2, 3), Unit(3, 4)]
    new, kept = add_level(frontier, [("X", 1, 3), ("NP", 0, 2), ("VP", 2, 4)])
    assert kept == [("VP", 2, 4)]  # (1, 3) cuts the NP; (0, 2) is the NP alone (unary)
    assert new == [Unit(0, 2, "NP"), Unit(2, 4, "VP")]
    assert add_level(frontier, [("ADVP", 3, 4)])[1] == [("ADVP", 3, 4)]


def test_position_classes_of_rows():
    # row 0: nodes (0, 1) and (2, 5) over 6 words; row 1: no node, 3 words; padded to 6
    classes = position_classes([[(0, 1), (2, 5)], []], 6)
    assert classes.tolist() == [
        [ONE_WORD_NODE, FREE, NODE_START, NODE_INSIDE, NODE_END, FREE],
        [FREE] * 6,
    ]
    assert position_classes([[(0, 2)]], 2).tolist() == [[NODE_START, NODE_END]]
    assert position_classes([], 4).shape == (0, 4)


def oracle_steps_from_words(n_words, spans):
    """The levels the oracle gives when every level adds exactly its nodes."""
    gold = collapse_unary(spans)
    frontier, nodes_of = words_frontier(n_words), []
    while nodes := oracle_level(frontier, gold):
        nodes_of.append((frontier, sorted(nodes, key=lambda node: node[1])))
        frontier, _ = add_level(frontier, nodes)
    return nodes_of, frontier


@pytest.mark.parametrize("text", TREES)
def test_the_oracle_on_the_gold_frontier_gives_the_gold_levels(text):
    (top,) = clean_tree(parse_tree(text))
    spans = constituents([top])
    steps = [step for step in level_steps(len(top.words), spans) if step.nodes]
    oracle, _ = oracle_steps_from_words(len(top.words), spans)
    assert oracle == [(step.frontier, sorted(step.nodes, key=lambda n: n[1])) for step in steps]


def test_the_oracle_builds_what_a_wrong_level_left_buildable():
    # gold: (S (NP a b) (VP c (NP d e))); the parser built X over (b, c) instead
    gold = collapse_unary([("S", 0, 5), ("NP", 0, 2), ("VP", 2, 5), ("NP", 3, 5)])
    frontier = [Unit(0, 1), Unit(1, 3, "X"), Unit(3, 4), Unit(4, 5)]
    assert oracle_level(frontier, gold) == [("NP", 3, 5)]  # NP (0, 2) and VP cross X
    frontier, _ = add_level(frontier, [("NP", 3, 5)])
    assert oracle_level(frontier, gold) == [("S", 0, 5)]
    frontier, _ = add_level(frontier, [("S", 0, 5)])
    assert oracle_level(frontier, gold) == []  # nothing left: the parser learns to stop
    # a node built with the gold span but another label cannot be built again
    assert oracle_level([Unit(0, 2, "VP"), Unit(2, 3)], [("NP", 0, 2), ("S", 0, 3)]) == [
        ("S", 0, 3)
    ]
