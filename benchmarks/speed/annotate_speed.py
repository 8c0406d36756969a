"""Words/s of `python -m spacy_senna annotate` with 1 process, 2 processes and 2 Ray workers.

usage: python benchmarks/speed/annotate_speed.py PIPELINE --raw-text-dir DIR [--max-words 5000000]
       [--components senna_tagger,senna_chunker,senna_ner] [--shard-size 2] [--batch-size N]
       [--work-dir DIR] [--output FILE] [--json FILE]

Builds one plain-text file of about --max-words whitespace words from DIR (Reuters-21578,
each article joined into one line, then English Wikipedia paragraphs from
enwiki-2015-part*.txt.gz until the total is reached), keeps only --components of
PIPELINE, then annotates the same text (SENNA format, the same --shard-size shards) with
`--n-process 1`, `--n-process 2` and `--backend ray --n-process 2`, each in its own
process, one after the other. Reports words/s (spaCy tokens over the annotation time,
pipeline loading excluded), the ratios to one process, wall time with loading, and peak
RSS of the driver and of the largest worker; checks that all three wrote the same bytes.
The text and outputs go to --work-dir (a temporary directory by default), never to the
repository. Needs the `ray` extra for the Ray run.
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import json
import platform
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Dict, Iterator, List

REUTERS = "reuters21578-title-body.txt.gz"
WIKIPEDIA = "enwiki-2015-part*.txt.gz"
RUNS = {
    "1 process": ["--n-process", "1"],
    "2 processes": ["--n-process", "2"],
    "Ray, 2 workers": ["--backend", "ray", "--n-process", "2"],
}


def reuters_articles(path: Path) -> Iterator[str]:
    """Reuters-21578 articles (blank-line separated, hard-wrapped), one line each."""
    article: List[str] = []
    with gzip.open(path, "rt", encoding="utf8") as f:
        for line in f:
            line = line.strip()
            if line:
                article.append(line)
            elif article:
                yield " ".join(article)
                article = []
    if article:
        yield " ".join(article)


def wikipedia_paragraphs(paths: List[Path]) -> Iterator[str]:
    """Non-empty lines (titles and paragraphs) of the Wikipedia parts."""
    for path in paths:
        with gzip.open(path, "rt", encoding="utf8") as f:
            for line in f:
                if line.strip():
                    yield line.strip()


def build_text(raw_text_dir: Path, max_words: int, path: Path) -> int:
    """Write about `max_words` whitespace words, one doc per line; returns the word count."""
    reuters = raw_text_dir / REUTERS
    wikipedia = sorted(raw_text_dir.glob(WIKIPEDIA))
    if not reuters.is_file():
        raise SystemExit(f"{reuters} not found (--raw-text-dir should hold {REUTERS})")
    words = 0
    with open(path, "w", encoding="utf8") as out:
        for source in (reuters_articles(reuters), wikipedia_paragraphs(wikipedia)):
            for line in source:
                if words >= max_words:
                    return words
                out.write(line + "\n")
                words += len(line.split())
    return words


def subset_pipeline(pipeline: str, components: List[str], path: Path) -> List[str]:
    """Save the pipeline with only `components`; returns their names in order."""
    import spacy

    nlp = spacy.load(pipeline)
    missing = [c for c in components if c not in nlp.pipe_names]
    if missing:
        raise SystemExit(f"{pipeline} has no component(s) {missing}; it has {nlp.pipe_names}")
    for name in list(nlp.pipe_names):
        if name not in components:
            nlp.remove_pipe(name)
    nlp.to_disk(path)
    return nlp.pipe_names


def digest(directory: Path) -> str:
    """One hash over every shard output's name and bytes."""
    h = hashlib.sha256()
    for path in sorted(directory.rglob("*.senna")):
        h.update(path.name.encode() + path.read_bytes())
    return h.hexdigest()


def run(pipeline: Path, text: Path, output: Path, shard_mb: float, extra: List[str]) -> Dict:
    """One annotate run in its own process; its `last_run` summary."""
    if output.exists():
        shutil.rmtree(output)
    cmd = [
        sys.executable, "-m", "spacy_senna", "annotate", str(pipeline), str(text),
        "--output", str(output), "--progress", "lines", "--shard-size", str(shard_mb), *extra,
    ]  # fmt: skip
    print("$", " ".join(cmd), flush=True)
    proc = subprocess.run(cmd, capture_output=True, text=True)
    print(proc.stdout.strip())
    if proc.returncode != 0:
        raise SystemExit(f"annotate failed ({proc.returncode}):\n{proc.stderr[-3000:]}")
    summary = json.loads((output / "annotate.json").read_text())["last_run"]
    summary["digest"] = digest(output)
    return summary


def report(results: Dict[str, Dict], words: int, components: List[str]) -> List[str]:
    base = results["1 process"]["words_per_second"]
    lines = [
        f"Text: {words:,} whitespace words ({results['1 process']['words']:,} spaCy tokens); "
        f"pipeline: {' -> '.join(components)}; {platform.processor() or platform.machine()}, "
        f"Python {platform.python_version()}",
        "",
        "| run | words/s | vs 1 process | annotation s | wall s (with loading) "
        "| peak RSS driver (MiB) | peak RSS per worker (MiB) |",
        "|---|---|---|---|---|---|---|",
    ]
    for name, r in results.items():
        lines.append(
            f"| {name} | {r['words_per_second']:,.0f} | {r['words_per_second'] / base:.2f}x "
            f"| {r['seconds']:,.1f} | {r['total_seconds']:,.1f} "
            f"| {r['driver_peak_rss_mib']:,.0f} | {r['worker_peak_rss_mib']:,.0f} |"
        )
    same = len({r["digest"] for r in results.values()}) == 1
    lines += ["", f"Outputs identical across the three runs: {'yes' if same else 'NO'}"]
    return lines


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument(
        "pipeline", help="pipeline directory, e.g. projects/quickstart/training/pipeline"
    )
    p.add_argument("--raw-text-dir", type=Path, required=True, help="holds the raw-text .gz files")
    p.add_argument("--max-words", type=int, default=5_000_000)
    p.add_argument("--components", default="senna_tagger,senna_chunker,senna_ner")
    p.add_argument("--shard-size", type=float, default=2.0, help="MB per shard (default 2)")
    p.add_argument("--batch-size", type=int, default=None, help="default: the pipeline's")
    p.add_argument("--work-dir", type=Path, default=None, help="default: a temporary directory")
    p.add_argument("--output", type=Path, help="also write the report here")
    p.add_argument("--json", type=Path, help="also write the numbers as JSON here")
    args = p.parse_args()
    work = args.work_dir or Path(tempfile.mkdtemp(prefix="annotate-speed-"))
    work.mkdir(parents=True, exist_ok=True)
    try:
        text = work / "text.txt"
        words = build_text(args.raw_text_dir, args.max_words, text)
        print(f"Text: {words:,} words, {text.stat().st_size / 2**20:,.1f} MB in {text}", flush=True)
        components = subset_pipeline(args.pipeline, args.components.split(","), work / "pipeline")
        batch = ["--batch-size", str(args.batch_size)] if args.batch_size else []
        results = {
            name: run(work / "pipeline", text, work / f"out-{i}", args.shard_size, extra + batch)
            for i, (name, extra) in enumerate(RUNS.items())
        }
    finally:
        if args.work_dir is None:
            shutil.rmtree(work, ignore_errors=True)
    lines = report(results, words, components)
    print("\n".join(lines))
    if args.output:
        args.output.parent.mkdir(parents=True, exist_ok=True)
        args.output.write_text("\n".join(lines) + "\n")
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        data = {
            "words": words,
            "components": components,
            "shard_mb": args.shard_size,
            "batch_size": args.batch_size,
        }
        args.json.write_text(json.dumps({**data, "runs": results}, indent=2) + "\n")


if __name__ == "__main__":
    main()
