"""The wave-5 overhead benchmarks run and report what they say: the garbage collector's
share of `nlp.pipe` (paused and running) and the compiled estimate of the tagger network."""

from pathlib import Path

import pytest
import spacy

from spacy_senna.bundled import bundled_path
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
