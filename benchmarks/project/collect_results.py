"""Collect a benchmark project run into one results JSON and markdown tables.

usage: python benchmarks/project/collect_results.py PROJECT_DIR [--json FILE] [--markdown FILE]

Reads PROJECT_DIR/metrics/*.json (written by `spacy evaluate` / benchmarks/accuracy/evaluate.py),
PROJECT_DIR/speed/*.json (benchmarks/speed/pipeline_speed.py --json) and
PROJECT_DIR/metrics/timings.json (benchmarks/project/timed.py), and prints each of our numbers
beside the paper's (Tables 4/8, 15 and 16) and spaCy's built-in components. A result
whose file is missing is listed as "not run", never invented.
"""

import argparse
import json
from pathlib import Path
from typing import Dict, List, NamedTuple, Optional


class Row(NamedTuple):
    task: str
    system: str
    metrics: str  # file name in metrics/
    key: str  # score key in that file
    paper: Optional[float]
    paper_row: str


POS = "POS (WSJ 22-24, acc)"
CHUNK = "CHUNK (CoNLL-2000, F1)"
NER = "NER (CoNLL-2003 testb, F1)"
PT0 = "PT0 (WSJ 22-24, F1)"
SRL = "SRL (CoNLL-2005 WSJ 23, F1; paper: WSJ 23 + Brown)"
WLL_ARGMAX = "senna WLL, per-token argmax (the paper's WLL)"
WLL_VITERBI = "senna WLL, constrained Viterbi"
ARGMAX = "per-token argmax"  # key in benchmarks/accuracy/decoding_ablation.py output

ACCURACY_ROWS: List[Row] = [
    Row(POS, "senna SLL", "pos-test.json", "tag_acc", 96.37, "NN+SLL"),
    Row(POS, "senna SLL + LM", "pos-lm-test.json", "tag_acc", 97.20, "NN+SLL+LM2"),
    Row(POS, "senna-plus (+ chars + LM)", "pos-plus-test.json", "tag_acc", 97.29, "SENNA"),
    Row(POS, "spaCy tagger (efficiency)", "spacy-tagger-test.json", "tag_acc", None, ""),
    Row(
        POS,
        "spaCy tagger (accuracy + LM vectors)",
        "spacy-tagger-acc-test.json",
        "tag_acc",
        None,
        "",
    ),
    Row(CHUNK, WLL_ARGMAX, "chunk-wll-decoding.json", ARGMAX, 89.13, "NN+WLL"),
    Row(CHUNK, WLL_VITERBI, "chunk-wll-test.json", "spans_chunks_f", None, ""),
    Row(CHUNK, "senna SLL", "chunk-test.json", "spans_chunks_f", 90.33, "NN+SLL"),
    Row(CHUNK, "senna SLL + LM", "chunk-lm-test.json", "spans_chunks_f", 94.32, "SENNA"),
    Row(
        CHUNK,
        "senna-plus (+ chars + LM + sentence LSTM)",
        "chunk-plus-test.json",
        "spans_chunks_f",
        94.32,
        "SENNA",
    ),
    Row(
        CHUNK,
        "senna-plus, refitted on all of train",
        "chunk-plus-full-test.json",
        "spans_chunks_f",
        94.32,
        "SENNA",
    ),
    Row(NER, WLL_ARGMAX, "ner-wll-decoding.json", ARGMAX, 79.53, "NN+WLL"),
    Row(NER, WLL_VITERBI, "ner-wll-testb.json", "ents_f", None, ""),
    Row(NER, "senna SLL", "ner-testb.json", "ents_f", 81.47, "NN+SLL"),
    Row(NER, "senna SLL + gazetteer", "ner-gaz-testb.json", "ents_f", None, ""),
    Row(NER, "senna SLL + LM", "ner-lm-testb.json", "ents_f", 88.67, "NN+SLL+LM2"),
    Row(
        NER,
        "senna-plus (+ chars + gazetteer + LM + document context)",
        "ner-plus-testb.json",
        "ents_f",
        89.59,
        "SENNA",
    ),
    Row(
        NER,
        "the same model, one Doc per sentence",
        "ner-plus-testb-sentences.json",
        "ents_f",
        89.59,
        "SENNA",
    ),
    Row(
        NER,
        "senna-plus, refitted on train + testa",
        "ner-plus-full-testb.json",
        "ents_f",
        89.59,
        "SENNA",
    ),
    Row(
        NER,
        "the refitted model, one Doc per sentence",
        "ner-plus-full-testb-sentences.json",
        "ents_f",
        89.59,
        "SENNA",
    ),
    Row(NER, "spaCy ner (efficiency)", "spacy-ner-testb.json", "ents_f", None, ""),
    Row(NER, "spaCy ner (accuracy + LM vectors)", "spacy-ner-acc-testb.json", "ents_f", None, ""),
    Row(PT0, "senna SLL", "pt0-test.json", "spans_pt0_f", 92.25, "SENNA (+LM2)"),
    Row(SRL, "senna SLL", "srl-test.json", "srl_f", 70.99, "NN+SLL"),
    Row(SRL, "senna SLL + LM", "srl-lm-test.json", "srl_f", 74.15, "NN+SLL+LM2"),
    Row(
        SRL, "senna SLL + LM + PT0 (Charniak level 0)", "srl-pt0-test.json", "srl_f", 75.49, "SENNA"
    ),
    Row(
        SRL, "senna SLL + LM + PT0 (PT0 network)", "srl-pt0-net-test.json", "srl_f", 75.49, "SENNA"
    ),
    Row(
        SRL,
        "+ trained on the PT0 network's segments (PT0 network)",
        "srl-pt0-netpt0-net-test.json",
        "srl_f",
        75.49,
        "SENNA",
    ),
    Row(
        SRL,
        "+ trained on the PT0 network's segments (cascade from words)",
        "srl-pt0-netpt0-words-test.json",
        "srl_f",
        75.49,
        "SENNA",
    ),
]

#: benchmarks/accuracy/srl_eval.py outputs: spacy-senna's SRL scorer checked against srl-eval.pl
SRL_EVAL_CHECKS = {
    "senna SLL": "srl-official.json",
    "senna SLL + LM": "srl-lm-official.json",
    "senna SLL + LM + PT0": "srl-pt0-official.json",
}


def read_json(path: Path) -> Optional[dict]:
    return json.loads(path.read_text(encoding="utf8")) if path.exists() else None


def collect(project: Path) -> Dict:
    """All numbers of one run, with the paper's beside them."""
    accuracy = []
    for row in ACCURACY_ROWS:
        scores = read_json(project / "metrics" / row.metrics)
        value = scores.get(row.key) if scores else None
        accuracy.append(
            {
                **row._asdict(),
                "ours": None if value is None else round(100 * value, 2),
            }
        )
    speed = {path.stem: read_json(path) for path in sorted((project / "speed").glob("*.json"))}
    timings = read_json(project / "metrics" / "timings.json") or {}
    srl_eval = {
        system: read_json(project / "metrics" / name) for system, name in SRL_EVAL_CHECKS.items()
    }
    return {"accuracy": accuracy, "speed": speed, "timings": timings, "srl_eval": srl_eval}


def _fmt(value: Optional[float]) -> str:
    return "not run" if value is None else f"{value:.2f}"


def to_markdown(results: Dict) -> str:
    lines = [
        "| task | system | ours | paper | paper row |",
        "|---|---|---|---|---|",
    ]
    for r in results["accuracy"]:
        paper = "–" if r["paper"] is None else f"{r['paper']:.2f}"
        lines.append(
            f"| {r['task']} | {r['system']} | {_fmt(r['ours'])} | {paper} | {r['paper_row']} |"
        )
    if results["speed"]:
        lines += [
            "",
            "| test set | senna words/s | spaCy words/s | ratio (compare_speed) "
            "| senna RSS MiB | spaCy RSS MiB |",
            "|---|---|---|---|---|---|",
        ]
        for name, s in results["speed"].items():
            c, b = s["compare_speed"], s["benchmark_speed"]
            lines.append(
                f"| {name} ({s['data']}) | {c['senna_wps']:,.0f} | {c['baseline_wps']:,.0f} "
                f"| {c['ratio']:.2f}x | {b['senna']['peak_rss_mib']:,.0f} "
                f"| {b['baseline']['peak_rss_mib']:,.0f} |"
            )
    checks = {system: c for system, c in results.get("srl_eval", {}).items() if c}
    if checks:
        lines += [
            "",
            "| SRL WSJ 23 | spacy-senna scorer F1 | srl-eval.pl F1 | identical (all rows) |",
            "|---|---|---|---|",
        ]
        for system, c in checks.items():
            official = c.get("srl_eval", {}).get("Overall")
            lines.append(
                f"| {system} | {c['spacy_senna']['Overall'][2]:.2f} "
                f"| {'script not found' if official is None else f'{official[2]:.2f}'} "
                f"| {c.get('identical', 'not checked')} |"
            )
    if results["timings"]:
        lines += [
            "",
            "| step | wall time (min) | peak RSS (MiB) | finished (UTC) |",
            "|---|---|---|---|",
        ]
        by_finish = sorted(results["timings"].items(), key=lambda item: item[1]["finished"])
        for step, t in by_finish:
            rss = t.get("peak_rss_mib")
            lines.append(
                f"| {step} | {t['seconds'] / 60:.1f} | {'–' if rss is None else f'{rss:,}'} "
                f"| {t['finished']} |"
            )
    return "\n".join(lines) + "\n"


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("project", type=Path)
    p.add_argument("--json", type=Path)
    p.add_argument("--markdown", type=Path)
    args = p.parse_args()
    results = collect(args.project)
    markdown = to_markdown(results)
    print(markdown)
    if args.json:
        args.json.write_text(json.dumps(results, indent=2), encoding="utf8")
    if args.markdown:
        args.markdown.write_text(markdown, encoding="utf8")


if __name__ == "__main__":
    main()
