"""Same-run speed and peak memory of a senna pipeline against a spaCy baseline pipeline.

usage: python benchmarks/speed/pipeline_speed.py SENNA_PIPELINE BASELINE_PIPELINE DATA.spacy
       [--rounds 5] [--batches 50] [--batch-size N] [--output FILE] [--json FILE]
       [--compare-speed PATH]

Runs, one after the other in this one invocation:
1. compare_speed.py (alternating rounds in one process, median ratio; by default
   ../shared/tools/compare_speed.py beside this repository), the way speed comparisons
   are judged in this project;
2. `python -m spacy benchmark speed` on each pipeline, each in its own process, with that
   process' peak RSS (ru_maxrss of a child forked from a small wrapper process, so
   its own).
`--batch-size` sets docs per batch in both (default: compare_speed's 256 and each pipeline's
own); use a small one for Docs that hold whole documents. Prints a markdown table to
paste into BENCHMARKS.md; `--json` also writes the numbers
(read by benchmarks/project/collect_results.py).
"""

import argparse
import json
import platform
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
COMPARE = ROOT.parent / "shared" / "tools" / "compare_speed.py"


def run_measured(cmd):
    """Run `cmd` in a child process; return (stdout, peak RSS of that child in MiB)."""
    wrapper = (
        "import resource, subprocess, sys;"
        "p = subprocess.run(sys.argv[1:], capture_output=True, text=True);"
        "sys.stdout.write(p.stdout + p.stderr);"
        "print('PEAK_RSS_KB', resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss);"
        "sys.exit(p.returncode)"
    )
    proc = subprocess.run(
        [sys.executable, "-c", wrapper, *cmd], capture_output=True, text=True, check=True
    )
    rss = int(re.search(r"PEAK_RSS_KB (\d+)", proc.stdout).group(1)) / 1024
    return proc.stdout, rss


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("senna")
    p.add_argument("baseline")
    p.add_argument("data")
    p.add_argument("--rounds", type=int, default=5)
    p.add_argument("--batches", type=int, default=50)
    p.add_argument("--batch-size", type=int, help="docs per batch (e.g. 16 for documents)")
    p.add_argument("--output", help="also write the report to this file")
    p.add_argument("--json", help="also write the numbers as JSON to this file")
    p.add_argument("--compare-speed", default=str(COMPARE), help="path of compare_speed.py")
    args = p.parse_args()
    if not Path(args.compare_speed).is_file():
        sys.exit(
            f"compare_speed.py not found at {args.compare_speed}: pass --compare-speed with "
            "its path (the shared tools folder beside the data)."
        )
    batch_size = ["--batch-size", str(args.batch_size)] if args.batch_size else []
    lines = []
    compare = subprocess.run(
        [
            sys.executable,
            args.compare_speed,
            args.senna,
            args.baseline,
            args.data,
            "--rounds",
            str(args.rounds),
            *batch_size,
        ],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    lines.append(compare.strip())
    rows = []
    for name in (args.senna, args.baseline):
        out, rss = run_measured(
            [
                sys.executable,
                "-m",
                "spacy",
                "benchmark",
                "speed",
                name,
                args.data,
                "--batches",
                str(args.batches),
                *batch_size,
            ]
        )
        mean = re.search(r"Mean: ([\d.]+) words/s \(95% CI: ([^)]*)\)", out)
        rows.append((name, mean.group(1), mean.group(2), rss))
    lines.append(f"\nmachine: {platform.machine()}, python {platform.python_version()}")
    lines.append("| pipeline | spacy benchmark speed (words/s) | 95% CI | peak RSS (MiB) |")
    lines.append("|---|---|---|---|")
    for name, mean, ci, rss in rows:
        lines.append(f"| {name} | {float(mean):,.0f} | {ci} | {rss:,.0f} |")
    report = "\n".join(lines)
    print(report)
    if args.output:
        Path(args.output).write_text(report + "\n", encoding="utf8")
    if args.json:
        numbers = {
            "data": args.data,
            "compare_speed": {
                "senna_wps": _number(r"^A .*: ([\d,]+) words/s", compare),
                "baseline_wps": _number(r"^B .*: ([\d,]+) words/s", compare),
                "ratio": _number(r"speed ratio \(median of rounds\): ([\d.]+)", compare),
            },
            "benchmark_speed": {
                role: {"pipeline": name, "wps": float(mean), "ci": ci, "peak_rss_mib": rss}
                for role, (name, mean, ci, rss) in zip(("senna", "baseline"), rows)
            },
        }
        Path(args.json).write_text(json.dumps(numbers, indent=2), encoding="utf8")


def _number(pattern: str, text: str) -> float:
    match = re.search(pattern, text, flags=re.MULTILINE)
    if match is None:
        raise ValueError(f"compare_speed.py output has no line matching {pattern!r}:\n{text}")
    return float(match.group(1).replace(",", ""))


if __name__ == "__main__":
    main()
