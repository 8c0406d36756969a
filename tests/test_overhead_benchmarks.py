"""The wave-5 overhead benchmarks run and report what they say: the garbage collector's
share of `nlp.pipe` (paused and running), the compiled estimate of the tagger network, the
Viterbi's two layouts and the compiled recurrence's bounds."""

from pathlib import Path

import numpy
import pytest
import spacy

from spacy_senna.bundled import bundled_path
from spacy_senna.models.senna_model import get_net
from spacy_senna.pipeline import batched, sequence_labeler
from spacy_senna.runtime.collector import collector_paused

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"


def test_collector_share_times_both_variants_and_restores_the_pause(load_script):
    script = load_script(BENCHMARKS / "speed" / "collector_share.py")
    nlp = spacy.load(bundled_path(), exclude=["senna_srl"])
    texts = ["Angela Merkel visited Paris on Monday.", "He sold the old house."] * 3
    results = script.compare(nlp, texts, rounds=2, batch_size=4)
    assert set(results) == {"paused", "running"}
    assert all(len(r["rounds"]) == 2 and r["best"] > 0 for r in results.values())
    assert sequence_labeler.collector_paused is collector_paused
    assert batched.collector_paused is collector_paused


def test_compiled_forward_times_the_tagger_and_agrees_with_it(load_script):
    script = load_script(BENCHMARKS / "speed" / "compiled_forward.py")
    nlp = spacy.load(bundled_path())
    texts = ["Angela Merkel visited Paris on Monday.", "He sold the old house to them."]
    result = script.compare(nlp, texts, rounds=1)
    assert result["docs"] == 2 and result["words"] == 7.5
    assert result["forward_us"] > result["lookup_us"] > 0 and result["compiled_us"] > 0
    assert result["agree"] > 0.9
    with pytest.raises(ValueError, match="No one-sentence text"):
        script.compare(nlp, [], rounds=1)


def test_viterbi_layouts_decode_alike_and_say_which_layout_a_crf_uses(load_script):
    script = load_script(BENCHMARKS / "speed" / "viterbi_layouts.py")
    nlp = spacy.load(bundled_path())
    srl = script.compare(get_net(nlp.get_pipe("senna_srl").model).criterion, [(3, 9)], 1)
    ner = script.compare(get_net(nlp.get_pipe("senna_ner").model).criterion, [(3, 9)], 1)
    assert [r["decodes_with"] for r in srl + ner] == ["blocked", "dense"]
    assert all(r["agree"] and r["dense_us"] > 0 and r["blocked_us"] > 0 for r in srl + ner)
    assert srl[0]["tags"] > ner[0]["tags"]


def test_forward_backward_speed_times_both_ways_and_they_agree(load_script):
    script = load_script(BENCHMARKS / "speed" / "forward_backward_speed.py")
    nlp = spacy.load(bundled_path())
    srl = script.compare(get_net(nlp.get_pipe("senna_srl").model).criterion, [1, 3], 9, 1)
    assert [(r["tags"], r["rows"]) for r in srl] == [(srl[0]["tags"], 1), (srl[0]["tags"], 3)]
    assert all(r["compiled_ms"] > 0 and r["torch_steps_ms"] > 0 for r in srl)
    assert all(r["relative_difference"] < 1e-4 for r in srl)


def test_recurrence_bounds_times_every_way_for_both_kinds_of_lengths(load_script):
    script = load_script(BENCHMARKS / "speed" / "recurrence_bounds.py")
    rows = script.compare(units=6, inputs=5, rows=[2, 3], steps=4, rounds=1, repeats=1)
    assert [(r["kind"], r["rows"], r["cells"]) for r in rows] == [
        ("same", 2, 12),
        ("same", 3, 18),
        ("mixed", 2, 12),
        ("mixed", 3, 18),
    ]
    assert all(r[way] > 0 for r in rows for way in script.WAYS)
    assert script.batch_sizes(numpy.array([3, 1])) == [2, 1, 1]
