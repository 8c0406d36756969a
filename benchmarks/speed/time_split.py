"""Where a senna pipeline's time goes: per component, featurizing, network, decoding,
span probabilities and the rest, next to a baseline pipeline's whole time.

usage: python benchmarks/speed/time_split.py SENNA_PIPELINE DATA.spacy [--baseline PIPELINE]
       [--rounds 3] [--batch-size 256] [--json FILE] [--read-scores]
       [--span-scores {lazy,eager,off}] [--enable COMPONENT]...

The docs are fresh copies of the data's words, piped in batches as compare_speed.py does,
after one warm-up pass; each figure is the median over the rounds. The parts are timed
by wrapping, in this process only, the functions every senna component goes through:

- featurize: the component's `Featurizer.extract_docs` (words to ids), and the level ids
  a parser whose network encodes each sentence once makes from arrays;
- network: the rest of the component's model (lookups, character CNNs, LSTMs, window or
  sentence layers): its `predict` minus featurizing;
- decode: Viterbi (and k-best) over the network's scores (the parser's, each level's);
- span probabilities: the forward-backward behind `doc.spans[...].attrs["scores"]`. The
  components compute them when first read (`span_scores = true`), so they cost nothing
  here unless `--read-scores` reads every one after each component (their time then also
  holds the network's second pass over the docs they need); with `span_scores = "eager"`
  they are computed with the spans (`--span-scores eager` sets that on every component
  that has the setting, as annotate's jsonl and spacy formats do);
- rest: everything else in the component (whitespace handling, rows, writing the Doc).

`--enable` runs a component the pipeline keeps disabled too (en_senna's senna_parser).
`--baseline` also times a second pipeline (e.g. spaCy's anchor) whole, alternating rounds
with the senna pipeline, so the split can be read against the baseline's time.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from collections import defaultdict
from contextlib import contextmanager
from pathlib import Path
from typing import Callable, Dict, Iterator, List

import spacy
from spacy.language import Language
from spacy.tokens import Doc, DocBin
from thinc.api import Model

from spacy_senna.features import featurizer
from spacy_senna.pipeline import parser, sentence_parses, sequence_labeler, spans

PARTS = ("featurize", "network", "decode", "span probabilities", "rest")
#: the span probabilities computed when read, network pass included
READ = "span probabilities read"
#: featurizing outside the model's calls (the parser's levels read as arrays)
FEATURIZE_OUTSIDE = "featurize outside the model"


class Clock:
    """Seconds per (component, part), counted only for the outermost call of a part."""

    def __init__(self) -> None:
        self.seconds: Dict[tuple, float] = defaultdict(float)
        self.component = ""
        self.active = True
        self._open: set = set()

    def timed(self, part: str, function: Callable) -> Callable:
        def wrapper(*args, **kwargs):
            # a part inside itself (e.g. a shared table's featurizer) or inside the span
            # probabilities computed when read (the network's second pass) counts once
            if not self.active or part in self._open or READ in self._open:
                return function(*args, **kwargs)
            inside = part != "featurize" or "model" in self._open
            self._open.add(part)
            start = time.perf_counter()
            try:
                return function(*args, **kwargs)
            finally:
                key = part if inside else FEATURIZE_OUTSIDE
                self.seconds[(self.component, key)] += time.perf_counter() - start
                self._open.discard(part)

        return wrapper


@contextmanager
def wrapped(clock: Clock) -> Iterator[None]:
    """The functions every senna component goes through, timed by `clock`."""
    targets = [
        (featurizer.Featurizer, "extract_docs", "featurize"),
        (Model, "predict", "model"),
        (parser, "level_scores", "model"),  # a level-heads network's levels, from arrays
        (sentence_parses.LevelReader, "batch", "featurize"),
        (sequence_labeler.SequenceLabeler, "row_results", "rows"),
        (spans.SpanLabeler, "row_results", "rows"),
        (parser, "decode_calls", "rows"),  # the parser's Viterbi, level by level
        (spans, "span_probabilities", "span probabilities"),
        (spans.SpanLabeler, "row_probabilities", READ),
    ]
    saved = [(owner, name, owner.__dict__[name]) for owner, name, _ in targets]
    try:
        for owner, name, part in targets:
            setattr(owner, name, clock.timed(part, owner.__dict__[name]))
        yield
    finally:
        for owner, name, original in saved:
            setattr(owner, name, original)


def time_components(
    nlp: Language, words: List[List[str]], batch_size: int, clock: Clock, read_scores: bool
) -> Dict[str, float]:
    """Seconds per component (whole) for one pass, reading every span probability after
    each component with `read_scores`; the parts go to `clock`."""
    docs = [Doc(nlp.vocab, words=w) for w in words]
    whole = {}
    for name, component in nlp.pipeline:
        clock.component = name
        start = time.perf_counter()
        if hasattr(component, "pipe"):
            docs = list(component.pipe(docs, batch_size=batch_size))
        else:
            docs = [component(doc) for doc in docs]
        if read_scores:
            for doc in docs:
                for group in doc.spans.values():
                    group.attrs.get("scores")
        whole[name] = time.perf_counter() - start
    return whole


def time_whole(nlp: Language, words: List[List[str]], batch_size: int) -> float:
    """Seconds of `nlp.pipe` over fresh docs of `words`."""
    docs = [Doc(nlp.vocab, words=w) for w in words]
    start = time.perf_counter()
    for _ in nlp.pipe(docs, batch_size=batch_size):
        pass
    return time.perf_counter() - start


def split(whole: Dict[str, float], seconds: Dict[tuple, float]) -> Dict[str, Dict[str, float]]:
    """Each component's whole time in PARTS (span probabilities computed with the spans are
    inside decode's calls, featurizing inside the model's)."""
    table = {}
    for name, total in whole.items():
        featurize = seconds.get((name, "featurize"), 0.0)
        outside = seconds.get((name, FEATURIZE_OUTSIDE), 0.0)
        model = seconds.get((name, "model"), 0.0)
        rows = seconds.get((name, "rows"), 0.0)
        with_spans = seconds.get((name, "span probabilities"), 0.0)
        read = seconds.get((name, READ), 0.0)
        table[name] = {
            "featurize": featurize + outside,
            "network": max(model - featurize, 0.0),
            "decode": max(rows - with_spans, 0.0),
            "span probabilities": with_spans + read,
            "rest": max(total - model - rows - read - outside, 0.0),
            "total": total,
        }
    return table


def median_tables(tables: List[Dict[str, Dict[str, float]]]) -> Dict[str, Dict[str, float]]:
    return {
        name: {part: statistics.median(t[name][part] for t in tables) for part in tables[0][name]}
        for name in tables[0]
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("pipeline")
    parser.add_argument("data")
    parser.add_argument("--baseline", help="also time this pipeline whole, same rounds")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--batch-size", type=int, default=256)
    parser.add_argument("--json", type=Path)
    parser.add_argument(
        "--read-scores", action="store_true", help="read every span probability (see above)"
    )
    parser.add_argument(
        "--span-scores",
        choices=["lazy", "eager", "off"],
        help="set every component's span_scores (default: as the pipeline has it)",
    )
    parser.add_argument(
        "--enable", action="append", default=[], help="run this disabled component too"
    )
    args = parser.parse_args()
    nlp = spacy.load(args.pipeline)
    for name in args.enable:
        nlp.enable_pipe(name)
    if args.span_scores:
        setting = {"lazy": True, "eager": "eager", "off": False}[args.span_scores]
        for _, component in nlp.pipeline:
            if hasattr(component, "span_scores"):
                component.span_scores = setting
    baseline = spacy.load(args.baseline) if args.baseline else None
    words = [[t.text for t in doc] for doc in DocBin().from_disk(args.data).get_docs(nlp.vocab)]
    n_words = sum(len(w) for w in words)
    tables, baseline_seconds = [], []
    clock = Clock()
    with wrapped(clock):
        for round_ in range(args.rounds + 1):  # the first is a warm-up
            clock.seconds.clear()
            whole = time_components(nlp, words, args.batch_size, clock, args.read_scores)
            if round_:
                tables.append(split(whole, clock.seconds))
            if baseline is not None:
                clock.active = False
                seconds = time_whole(baseline, words, args.batch_size)
                clock.active = True
                if round_:
                    baseline_seconds.append(seconds)
    table = median_tables(tables)
    print(f"{args.pipeline}: {n_words} words, median of {args.rounds} rounds, seconds")
    print("| component | " + " | ".join(PARTS) + " | total |")
    print("|---|" + "---:|" * (len(PARTS) + 1))
    for name, parts in table.items():
        print(f"| {name} | " + " | ".join(f"{parts[p]:.3f}" for p in (*PARTS, "total")) + " |")
    sums = {p: sum(parts[p] for parts in table.values()) for p in (*PARTS, "total")}
    print("| **all** | " + " | ".join(f"{sums[p]:.3f}" for p in (*PARTS, "total")) + " |")
    result = {"pipeline": args.pipeline, "words": n_words, "components": table, "all": sums}
    if baseline_seconds:
        result["baseline"] = {
            "pipeline": args.baseline,
            "seconds": statistics.median(baseline_seconds),
        }
        print(f"baseline {args.baseline}: {result['baseline']['seconds']:.3f} s whole")
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(result, indent=2) + "\n", encoding="utf8")


if __name__ == "__main__":
    main()
