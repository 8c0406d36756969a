"""EVALB (COLLINS.prm) labelled bracketing: one test per rule, each failing without it."""

import pytest

from spacy_senna.cli import main
from spacy_senna.scoring.parseval import evalb_view, parseval
from spacy_senna.syntax.trees import parse_tree


def score(gold, test):
    totals = parseval([(parse_tree(gold), parse_tree(test))]).all
    return totals.matched, totals.gold, totals.test


def brackets(text):
    return sorted(evalb_view(parse_tree(text)).brackets.elements())


def test_identical_trees_score_100():
    tree = "(S (NP (DT The) (NN cat)) (VP (VBD sat)))"
    assert parseval([(parse_tree(tree), parse_tree(tree))]).all.fscore == 100.0


def test_labels_must_match():
    assert score("(S (NP (NN a)) (VP (VB b)))", "(S (NP (NN a)) (ADJP (VB b)))") == (2, 3, 3)


def test_punctuation_bounds_no_bracket():
    # the gold NP holds the comma, the guess leaves it out: the same bracket for EVALB
    gold = "(S (NP (NN a) (, ,)) (VP (VB b)))"
    test = "(S (NP (NN a)) (, ,) (VP (VB b)))"
    assert score(gold, test) == (3, 3, 3)


@pytest.mark.parametrize("tag", [",", ":", "``", "''", "."])
def test_every_collins_punctuation_tag_is_deleted(tag):
    gold = f"(S (NP (NN a) ({tag} x)) (VP (VB b)))"
    test = f"(S (NP (NN a)) ({tag} x) (VP (VB b)))"
    assert score(gold, test) == (3, 3, 3)


def test_a_bracket_over_punctuation_only_is_not_counted():
    assert brackets("(S (NP (NN a)) (PRN (, ,)) (VP (VB b)))") == [
        ("NP", 0, 1),
        ("S", 0, 2),
        ("VP", 1, 2),
    ]


def test_advp_and_prt_are_one_label():
    assert score("(S (VP (VB give) (PRT (RP up))))", "(S (VP (VB give) (ADVP (RP up))))") == (
        3,
        3,
        3,
    )


@pytest.mark.parametrize("root", ["TOP", "ROOT", ""])
def test_the_root_wrapper_is_not_counted(root):
    assert brackets(f"({root} (S (NP (NN a)) (VP (VB b))))") == [
        ("NP", 0, 1),
        ("S", 0, 2),
        ("VP", 1, 2),
    ]


def test_top_is_deleted_anywhere():
    assert brackets("(S (TOP (NN a)) (VP (VB b)))") == [("S", 0, 2), ("VP", 1, 2)]


def test_empty_elements_and_empty_constituents_go_first():
    gold = "(S (NP-SBJ (-NONE- *-1)) (VP (VB b) (NP (NN c))))"
    assert brackets(gold) == [("NP", 1, 2), ("S", 0, 2), ("VP", 0, 2)]
    assert score(gold, "(S (VP (VB b) (NP (NN c))))") == (3, 3, 3)


def test_function_tags_and_indices_are_stripped():
    assert score("(S (NP-SBJ-1 (NN a)) (VP=2 (VB b)))", "(S (NP (NN a)) (VP (VB b)))") == (3, 3, 3)


def test_preterminals_are_not_brackets():
    assert brackets("(S (NN a) (VB b))") == [("S", 0, 2)]


def test_duplicate_brackets_match_one_to_one():
    gold = "(S (NP (NP (NN a))) (VP (VB b)))"
    assert score(gold, gold) == (4, 4, 4)
    assert score(gold, "(S (NP (NN a)) (VP (VB b)))") == (3, 4, 3)


def test_a_sentence_whose_words_differ_is_an_error_left_out():
    scores = parseval(
        [
            (parse_tree("(S (NN a) (VB b))"), parse_tree("(S (NN a) (VB c))")),
            (parse_tree("(S (NN a))"), parse_tree("(S (NN a))")),
        ]
    )
    assert scores.errors == [1] and scores.all.sentences == 1 and scores.all.gold == 1


def test_score_parse_command_prints_evalb_summary(tmp_path, capsys):
    gold, test = tmp_path / "gold.mrg", tmp_path / "test.mrg"
    gold.write_text("( (S (NP (NN a)) (VP (VB b)) (. .)))\n")
    test.write_text("( (S (NP (NN a)) (ADJP (VB b)) (. .)))\n")
    main(["score", "parse", str(gold), str(test)])
    out = capsys.readouterr().out
    assert "Bracketing Recall         =  66.67" in out
    assert "Bracketing FMeasure       =  66.67" in out
    assert "-- len<=40 --" in out


def test_score_parse_command_refuses_files_of_different_lengths(tmp_path, capsys):
    gold, test = tmp_path / "gold.mrg", tmp_path / "test.mrg"
    gold.write_text("(S (NN a))\n(S (NN b))\n")
    test.write_text("(S (NN a))\n")
    with pytest.raises(SystemExit):
        main(["score", "parse", str(gold), str(test)])
    assert "holds 1 trees, the gold file 2" in capsys.readouterr().err
