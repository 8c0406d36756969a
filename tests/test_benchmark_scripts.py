"""The benchmark project's helper scripts: step timing and the results collector."""

import json
import subprocess
import sys
from pathlib import Path

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"


def test_timed_records_wall_time_peak_memory_and_exit_code(tmp_path):
    timings = tmp_path / "metrics" / "timings.json"
    ok = [sys.executable, str(BENCHMARKS / "timed.py"), str(timings), "step-a", "--"]
    assert subprocess.run([*ok, sys.executable, "-c", "pass"]).returncode == 0
    big = [sys.executable, str(BENCHMARKS / "timed.py"), str(timings), "step-big", "--"]
    allocate = "b = bytearray(300 * 2**20); b[::4096] = b'x' * len(b[::4096])"
    assert subprocess.run([*big, sys.executable, "-c", allocate]).returncode == 0
    failing = [sys.executable, str(BENCHMARKS / "timed.py"), str(timings), "step-b", "--"]
    code = "import sys; sys.exit(3)"
    assert subprocess.run([*failing, sys.executable, "-c", code]).returncode == 3
    recorded = json.loads(timings.read_text())
    assert set(recorded) == {"step-a", "step-b", "step-big"}
    assert recorded["step-big"]["peak_rss_mib"] >= 300
    assert recorded["step-b"]["returncode"] == 3
    assert recorded["step-a"]["seconds"] >= 0
    assert "-c pass" in recorded["step-a"]["command"]


def test_collect_results_reports_missing_runs(tmp_path):
    sys.path.insert(0, str(BENCHMARKS))
    try:
        import collect_results
    finally:
        sys.path.remove(str(BENCHMARKS))
    (tmp_path / "metrics").mkdir()
    (tmp_path / "speed").mkdir()
    (tmp_path / "metrics" / "ner-testb.json").write_text(json.dumps({"ents_f": 0.8234}))
    speed = {
        "data": "test.spacy",
        "compare_speed": {"senna_wps": 30000.0, "baseline_wps": 10000.0, "ratio": 3.0},
        "benchmark_speed": {
            "senna": {"pipeline": "a", "wps": 1.0, "ci": "", "peak_rss_mib": 500.0},
            "baseline": {"pipeline": "b", "wps": 1.0, "ci": "", "peak_rss_mib": 1300.0},
        },
    }
    (tmp_path / "speed" / "ner.json").write_text(json.dumps(speed))
    timing = {"command": "x", "seconds": 120.0, "peak_rss_mib": 2048, "finished": "t"}
    (tmp_path / "metrics" / "timings.json").write_text(json.dumps({"ner-train": timing}))
    results = collect_results.collect(tmp_path)
    by_file = {row["metrics"]: row for row in results["accuracy"]}
    assert by_file["ner-testb.json"]["ours"] == 82.34
    assert by_file["ner-testb.json"]["paper"] == 81.47
    assert by_file["pos-test.json"]["ours"] is None
    markdown = collect_results.to_markdown(results)
    assert "| NER (CoNLL-2003 testb, F1) | senna SLL | 82.34 | 81.47 | NN+SLL |" in markdown
    assert "not run" in markdown
    assert "| 3.00x | 500 | 1,300 |" in markdown
    assert "| ner-train | 2.0 | 2,048 | t |" in markdown
