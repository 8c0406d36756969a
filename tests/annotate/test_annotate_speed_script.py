"""benchmarks/speed/annotate_speed.py: the benchmark text, the pipeline subset, the report."""

import gzip
from pathlib import Path

import spacy

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "speed" / "annotate_speed.py"


def test_text_joins_reuters_articles_then_adds_wikipedia_until_the_budget(tmp_path, load_script):
    script = load_script(SCRIPT)
    raw = tmp_path / "raw"
    raw.mkdir()
    with gzip.open(raw / script.REUTERS, "wt") as f:
        f.write("COCOA REVIEW\nShowers continued\nin Bahia.\n\nSECOND ONE\nText here.\n")
    with gzip.open(raw / "enwiki-2015-part1.txt.gz", "wt") as f:
        f.write("Anarchism\n\nAnarchism is a philosophy.\nIt has many forms.\n")
    out = tmp_path / "text.txt"
    assert script.build_text(raw, 11, out) == 11
    assert out.read_text().splitlines() == [
        "COCOA REVIEW Showers continued in Bahia.",
        "SECOND ONE Text here.",
        "Anarchism",
    ]
    assert script.build_text(raw, 1000, out) == 19
    assert out.read_text().splitlines()[-1] == "It has many forms."


def test_pipeline_subset_keeps_the_named_components(pipeline_dir, tmp_path, load_script):
    script = load_script(SCRIPT)
    names = script.subset_pipeline(str(pipeline_dir), ["senna_tagger", "senna_ner"], tmp_path / "p")
    assert names == spacy.load(tmp_path / "p").pipe_names == ["senna_tagger", "senna_ner"]


def test_report_gives_ratios_to_one_process(load_script):
    script = load_script(SCRIPT)
    run = {
        "words": 1000,
        "seconds": 10.0,
        "total_seconds": 12.0,
        "words_per_second": 100.0,
        "driver_peak_rss_mib": 300,
        "worker_peak_rss_mib": 500,
        "digest": "a",
    }
    results = {
        "1 process": run,
        "2 processes": {**run, "words_per_second": 180.0},
        "Ray, 2 workers": {**run, "words_per_second": 190.0, "digest": "b"},
    }
    lines = script.report(results, 900, ["senna_tagger"])
    assert any(line.startswith("| 2 processes | 180 | 1.80x |") for line in lines)
    assert any(line.startswith("| Ray, 2 workers | 190 | 1.90x |") for line in lines)
    assert lines[-1].endswith("NO")
