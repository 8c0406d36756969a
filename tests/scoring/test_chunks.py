"""score_chunks: precision, recall and F1 of typed chunks, overall and per type."""

import pytest

from spacy_senna.scoring import score_chunks


def test_score_chunks_counts():
    gold = [[("NP", 0, 2), ("VP", 2, 3), ("PP", 3, 4), ("NP", 4, 6)], [("NP", 0, 1), ("VP", 1, 2)]]
    pred = [[("NP", 0, 2), ("VP", 2, 3), ("NP", 3, 6)], [("NP", 0, 1)]]
    result = score_chunks(gold, pred)
    assert (result["n_gold"], result["n_found"], result["n_correct"]) == (6, 4, 3)
    assert result["p"] == pytest.approx(0.75)
    assert result["r"] == pytest.approx(0.5)
    assert result["f"] == pytest.approx(0.6)
    assert sorted(result["per_type"]) == ["NP", "PP", "VP"]
    pp = result["per_type"]["PP"]
    assert (pp["p"], pp["r"], pp["f"], pp["n_found"]) == (0.0, 0.0, 0.0, 0)
    vp = result["per_type"]["VP"]
    assert (vp["p"], vp["r"]) == (1.0, 0.5) and vp["f"] == pytest.approx(2 / 3)


def test_score_chunks_tricky():
    # same span, wrong type; right type, wrong end; chunk in another sentence doesn't match
    gold = [[("PER", 0, 2), ("LOC", 3, 4)], [("ORG", 0, 1)]]
    pred = [[("ORG", 0, 2), ("LOC", 3, 5)], [("PER", 0, 2)]]
    result = score_chunks(gold, pred)
    assert (result["n_gold"], result["n_found"], result["n_correct"]) == (3, 3, 0)
    assert (result["p"], result["r"], result["f"]) == (0.0, 0.0, 0.0)
    assert set(result["per_type"]) == {"PER", "LOC", "ORG"}
    # nothing at all: every score is 0, not an error
    empty = score_chunks([[], []], [[], []])
    assert (empty["p"], empty["r"], empty["f"], empty["per_type"]) == (0.0, 0.0, 0.0, {})
    # only predictions of a type absent from gold
    only_pred = score_chunks([[]], [[("MISC", 0, 1)]])
    assert only_pred["per_type"]["MISC"]["n_gold"] == 0
    assert only_pred["per_type"]["MISC"]["p"] == 0.0
    perfect = score_chunks([[("X", 0, 1), ("X", 1, 3)]], [[("X", 1, 3), ("X", 0, 1)]])
    assert (perfect["p"], perfect["r"], perfect["f"]) == (1.0, 1.0, 1.0)


def test_score_chunks_length_mismatch():
    with pytest.raises(ValueError):
        score_chunks([[]], [[], []])
