"""Seconds and peak memory of each senna component on very long documents.

usage: python benchmarks/speed/long_documents.py PIPELINE [--lengths 1000 10000 50000]
       [--srl-sentences 100 200 400] [--text FILE [--components NAME ...]]
       [--exclude NAME ...]
       [--output RESULTS.json]

Each measurement runs in a fresh process: load the pipeline, build one document of N
tokens (a repeated 8-token news sentence), with or without sentence boundaries, run the
components before the measured one untimed, then reset the process' peak resident set
(Linux: /proc/self/clear_refs) and time the measured component alone ("pipeline": all of
them). `peak_mib` is the peak RSS during the measured run above the RSS just before it.
SRL is also timed on one sentence of 100/200/400 tokens (its predicates are the verbs
the tagger finds). Torch runs single-threaded, as the components do by default.

With `--text FILE` the document is instead the first N tokens of a real text (newlines
and all), with the sentences the pipeline's own components find (`nlp.max_length` is
raised to fit), and each row also gives microseconds per token and the process' peak RSS
(`peak_rss_mib`: the loaded pipeline, the doc and the measured run); `--components`
picks what is measured ("pipeline": all); `--exclude` leaves components out of the
loaded pipeline.
"""

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Sequence

SENTENCE = "The company said it would buy more shares .".split()


def _status_kib(field: str) -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1])
    raise RuntimeError(f"{field} not in /proc/self/status")


def _text_doc(nlp, path: str, n_tokens: int):
    """The first `n_tokens` tokens of the text in `path`, as a Doc."""
    with open(path, encoding="utf8") as f:
        text = f.read(n_tokens * 8)
    nlp.max_length = max(nlp.max_length, len(text) + 1)
    doc = nlp.make_doc(text)
    if len(doc) < n_tokens:
        raise ValueError(f"{path} holds fewer than {n_tokens} tokens in {len(text)} characters")
    return doc[:n_tokens].as_doc()


def measure(
    pipeline: str,
    component: str,
    n_tokens: int,
    sentences: bool,
    text: str = "",
    exclude: Sequence[str] = (),
) -> dict:
    """Run in this process: time `component` ("pipeline" = all) on one long doc (the
    first `n_tokens` of the file `text` when given)."""
    import spacy
    import torch
    from spacy.tokens import Doc

    import spacy_senna  # noqa: F401

    torch.set_num_threads(1)
    nlp = spacy.load(pipeline, exclude=list(exclude))
    if text:
        doc = _text_doc(nlp, text, n_tokens)
    else:
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
        "peak_rss_mib": round(peak / 1024, 1),
        "us_per_token": round(seconds / n_tokens * 1e6, 2),
        "frames": len(doc._.srl_frames),
    }


def _child(
    pipeline: str,
    component: str,
    n_tokens: int,
    sentences: bool,
    text: str = "",
    exclude: Sequence[str] = (),
) -> dict:
    cmd = [sys.executable, __file__, pipeline, "--child", component, str(n_tokens), str(sentences)]
    if text:
        cmd += ["--text", text]
    if exclude:
        cmd += ["--exclude", *exclude]
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("pipeline")
    p.add_argument("--lengths", type=int, nargs="+", default=[1000, 10000, 50000])
    p.add_argument("--srl-sentences", type=int, nargs="+", default=[100, 200, 400])
    p.add_argument("--text", default="", help="a text file: documents of its first tokens")
    p.add_argument("--components", nargs="+", help="with --text: the components to measure")
    p.add_argument("--exclude", nargs="+", default=[], help="components not to load")
    p.add_argument("--output", help="also write the results as JSON")
    p.add_argument("--child", nargs=3, help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.child:
        component, n, sentences = args.child[0], int(args.child[1]), args.child[2] == "True"
        row = measure(args.pipeline, component, n, sentences, args.text, args.exclude)
        print(json.dumps(row))
        return
    import spacy

    names = spacy.load(args.pipeline, exclude=args.exclude).pipe_names
    if args.text:
        _text_rows(args, args.components or [*names, "pipeline"])
        return
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


def _text_rows(args: argparse.Namespace, components: list) -> None:
    """Each component on the first N tokens of `args.text`, for each N of `args.lengths`."""
    results = []
    print(f"{'component':>16} {'tokens':>8} {'seconds':>9} {'us/token':>9} {'peak RSS MiB':>12}")
    for component in components:
        for n in args.lengths:
            row = _child(args.pipeline, component, n, True, args.text, args.exclude)
            results.append(row)
            print(
                f"{component:>16} {n:>8} {row['seconds']:>9.2f} {row['us_per_token']:>9.1f} "
                f"{row['peak_rss_mib']:>12.0f}",
                flush=True,
            )
    if args.output:
        Path(args.output).write_text(json.dumps(results, indent=2), encoding="utf8")


if __name__ == "__main__":
    main()
