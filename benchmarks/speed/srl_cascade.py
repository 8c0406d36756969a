"""Words/s and peak memory of SENNA's whole SRL cascade on one core: senna_tagger ->
senna_chunker (PT0) -> senna_srl on every verb the tagger finds.

usage: python benchmarks/speed/srl_cascade.py TAGGER PT0 SRL DATA.spacy --save PIPELINE
       [--rounds 3] [--batch-size 256] [--threads 1] [--json FILE]

Assembles the three trained pipelines' components into one pipeline (saved to
`--save`, so `spacy.load`, `spacy benchmark speed` and `annotate` can use it), then
tags fresh, unannotated copies of DATA's words (tokens only: no POS, no predicates, no
PT0 spans) through `nlp.pipe`, `--rounds` times after a warm-up, on `--threads` torch
threads. Reports the median words/s of the whole cascade, the seconds of each component
(median over rounds; each component's own time inside the same runs), how many
predicates the tagger found against DATA's given predicates (`doc.spans
["srl_predicates"]`), and the process' own peak RSS (`peak_rss_mib`, VmHWM: loading included, as in
SENNA's Table 16, whose SRL figure is 51 s and 124 MB for 63,843 tokens, about 1,250
tokens/s on a 3 GHz core of 2009).
"""

import argparse
import json
import platform
import statistics
import time
import warnings
from pathlib import Path
from typing import Dict, List, Tuple

import spacy
import torch
from spacy.language import Language
from spacy.tokens import Doc, DocBin

import spacy_senna  # noqa: F401  (registers the components)
from spacy_senna.annotate.results import peak_rss_mib


def assemble(tagger: str, pt0: str, srl: str) -> Language:
    """One pipeline of the three trained pipelines' components, in cascade order."""
    nlp = spacy.blank("en")
    for path, factory, name in (
        (tagger, "senna_tagger", "senna_tagger"),
        (pt0, "senna_chunker", "senna_pt0"),
        (srl, "senna_srl", "senna_srl"),
    ):
        source = spacy.load(path)
        found = [n for n in source.pipe_names if source.get_pipe_meta(n).factory == factory]
        if not found:
            raise SystemExit(f"{path}: no {factory} component (has {source.pipe_names})")
        with warnings.catch_warnings():
            # spaCy's W113 (the sources' vectors differ) does not apply: senna components
            # copy the vectors into their own lookup tables when they are initialised
            warnings.filterwarnings("ignore", message=r"\[W113\]")
            nlp.add_pipe(found[0], name=name, source=source)
    spans_key = nlp.get_pipe("senna_pt0").cfg.get("spans_key")
    if spans_key != "pt0":
        raise SystemExit(f"{pt0}: its chunker writes doc.spans['{spans_key}'], not 'pt0'")
    return nlp


def timed_run(
    nlp: Language, words: List[List[str]], batch_size: int
) -> Tuple[Dict[str, float], List[Doc]]:
    """Seconds of the whole cascade and of each component on fresh docs, and the docs."""
    docs = [Doc(nlp.vocab, words=w) for w in words]
    seconds = {name: 0.0 for name in nlp.pipe_names}
    tagged: List[Doc] = []
    start = time.perf_counter()
    for i in range(0, len(docs), batch_size):
        batch = docs[i : i + batch_size]
        for name, pipe in nlp.pipeline:
            t = time.perf_counter()
            batch = list(pipe.pipe(batch, batch_size=batch_size))
            seconds[name] += time.perf_counter() - t
        tagged += batch
    seconds["cascade"] = time.perf_counter() - start
    return seconds, tagged


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("tagger")
    p.add_argument("pt0")
    p.add_argument("srl")
    p.add_argument("data")
    p.add_argument("--save", required=True, help="directory for the assembled pipeline")
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--batch-size", type=int, default=256)
    p.add_argument("--threads", type=int, default=1)
    p.add_argument("--json", help="also write the numbers as JSON to this file")
    args = p.parse_args()
    torch.set_num_threads(args.threads)
    nlp = assemble(args.tagger, args.pt0, args.srl)
    nlp.to_disk(args.save)
    nlp = spacy.load(args.save)
    gold_docs = list(DocBin().from_disk(args.data).get_docs(nlp.vocab))
    words = [[t.text for t in doc] for doc in gold_docs]
    n_words = sum(len(w) for w in words)
    timed_run(nlp, words[:200], args.batch_size)  # warm-up
    runs, tagged = [], []
    for _ in range(args.rounds):
        seconds, tagged = timed_run(nlp, words, args.batch_size)
        runs.append(seconds)
    median = {key: statistics.median(run[key] for run in runs) for key in runs[0]}
    found = sum(len(doc._.srl_frames) for doc in tagged)
    given = sum(len(doc.spans.get("srl_predicates", [])) for doc in gold_docs)
    peak_mib = peak_rss_mib()
    result = {
        "words": n_words,
        "docs": len(words),
        "rounds": args.rounds,
        "threads": args.threads,
        "batch_size": args.batch_size,
        "words_per_second": round(n_words / median["cascade"]),
        "seconds": {key: round(value, 2) for key, value in median.items()},
        "predicates_found": found,
        "predicates_given": given,
        "peak_rss_mib": round(peak_mib),
        "cpu": platform.processor() or platform.machine(),
    }
    print(f"{n_words:,} words, {len(words):,} docs, {args.rounds} rounds, {args.threads} thread(s)")
    print(f"cascade: {result['words_per_second']:,} words/s, peak RSS {result['peak_rss_mib']} MiB")
    for name in nlp.pipe_names:
        share = median[name] / median["cascade"]
        print(f"  {name:<14} {median[name]:7.2f} s  ({share:.0%})")
    print(f"predicates: {found:,} found by the tagger, {given:,} given in the data")
    if args.json:
        Path(args.json).write_text(json.dumps(result, indent=2), encoding="utf8")


if __name__ == "__main__":
    main()
