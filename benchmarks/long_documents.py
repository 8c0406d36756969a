"""Seconds and peak memory of each senna component on very long documents.

usage: python benchmarks/long_documents.py PIPELINE [--lengths 1000 10000 50000]
       [--srl-sentences 100 200 400] [--output RESULTS.json]

Each measurement runs in a fresh process: load the pipeline, build one document of N
tokens (a repeated 8-token news sentence), with or without sentence boundaries, run the
components before the measured one untimed, then reset the process' peak resident set
(Linux: /proc/self/clear_refs) and time the measured component alone ("pipeline": all of
them). `peak_mib` is the peak RSS during the measured run above the RSS just before it.
SRL is also timed on one sentence of 100/200/400 tokens (its predicates are the verbs
the tagger finds). Torch runs single-threaded, as the components do by default.
"""

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

SENTENCE = "The company said it would buy more shares .".split()


def _status_kib(field: str) -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1])
    raise RuntimeError(f"{field} not in /proc/self/status")


def measure(pipeline: str, component: str, n_tokens: int, sentences: bool) -> dict:
    """Run in this process: time `component` ("pipeline" = all) on one long doc."""
    import spacy
    import torch
    from spacy.tokens import Doc

    import spacy_senna  # noqa: F401

    torch.set_num_threads(1)
    nlp = spacy.load(pipeline)
    words = (SENTENCE * (n_tokens // len(SENTENCE) + 1))[:n_tokens]
    starts = [i % len(SENTENCE) == 0 for i in range(n_tokens)] if sentences else None
    doc = Doc(nlp.vocab, words=words, sent_starts=starts)
    names = nlp.pipe_names
    measured = names if component == "pipeline" else [component]
    for name in names[: names.index(measured[0])]:
        doc = nlp.get_pipe(name)(doc)
    Path("/proc/self/clear_refs").write_text("5")
    before = _status_kib("VmRSS")
    start = time.perf_counter()
    for name in measured:
        doc = nlp.get_pipe(name)(doc)
    seconds = time.perf_counter() - start
    peak = _status_kib("VmHWM")
    return {
        "component": component,
        "tokens": n_tokens,
        "sentences": sentences,
        "seconds": round(seconds, 3),
        "peak_mib": round((peak - before) / 1024, 1),
        "frames": len(doc._.srl_frames),
    }


def _child(pipeline: str, component: str, n_tokens: int, sentences: bool) -> dict:
    cmd = [sys.executable, __file__, pipeline, "--child", component, str(n_tokens), str(sentences)]
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("pipeline")
    p.add_argument("--lengths", type=int, nargs="+", default=[1000, 10000, 50000])
    p.add_argument("--srl-sentences", type=int, nargs="+", default=[100, 200, 400])
    p.add_argument("--output", help="also write the results as JSON")
    p.add_argument("--child", nargs=3, help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.child:
        component, n, sentences = args.child[0], int(args.child[1]), args.child[2] == "True"
        print(json.dumps(measure(args.pipeline, component, n, sentences)))
        return
    import spacy

    names = spacy.load(args.pipeline).pipe_names
    results = []
    print(f"{'component':>16} {'tokens':>7} {'sentences':>9} {'seconds':>9} {'peak MiB':>9}")
    for component in [*names, "pipeline"]:
        for n in args.lengths:
            for sentences in (False, True):
                row = _child(args.pipeline, component, n, sentences)
                results.append(row)
                print(
                    f"{component:>16} {n:>7} {str(sentences):>9} {row['seconds']:>9.2f} "
                    f"{row['peak_mib']:>9.1f}",
                    flush=True,
                )
    if "senna_srl" in names:
        print("senna_srl on one sentence:")
        for n in args.srl_sentences:
            row = _child(args.pipeline, "senna_srl", n, False)
            row["one_sentence"] = True
            results.append(row)
            print(f"  {n} tokens, {row['frames']} predicates: {row['seconds']:.2f} s", flush=True)
    if args.output:
        Path(args.output).write_text(json.dumps(results, indent=2), encoding="utf8")


if __name__ == "__main__":
    main()
