"""`<lang>_senna` against a spaCy pipeline of the same language, same run, on the treebank's
test words: UPOS accuracy (`pos_`, or `tag_` where a pipeline sets no `pos_`), lemma accuracy
where both lemmatize, and words/s on one core (`nlp.pipe` over fresh Docs of the gold
words, alternating rounds, each pipeline's best).

    python scripts/evaluate_anchor.py PIPELINE ANCHOR corpus/tb/test.spacy \
        --output metrics/anchor-compare.json [--rounds 3] [--anchor-exclude parser,ner]

`--anchor-exclude` loads the anchor without those components (its words/s for the analyses
`<lang>_senna` also gives).

Run it under `taskset -c N` for one core. Both read the same gold words (the treebank's
syntactic words), so tokenization does not enter the comparison.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import spacy
from spacy.language import Language
from spacy.tokens import Doc, DocBin


def _docs(nlp: Language, gold: list[Doc]) -> list[Doc]:
    return [Doc(nlp.vocab, words=[t.text for t in doc]) for doc in gold]


def _seconds(nlp: Language, gold: list[Doc]) -> tuple[float, list[Doc]]:
    docs = _docs(nlp, gold)
    start = time.perf_counter()
    out = list(nlp.pipe(docs, batch_size=256))
    return time.perf_counter() - start, out


def _upos(token) -> str:
    return token.pos_ or token.tag_


def accuracy(predicted: list[Doc], gold: list[Doc]) -> dict:
    """UPOS and lemma accuracy of `predicted` against `gold`, word by word."""
    n = pos = lemma = 0
    for p_doc, g_doc in zip(predicted, gold):
        for p, g in zip(p_doc, g_doc):
            n += 1
            pos += _upos(p) == g.pos_
            lemma += p.lemma_ == g.lemma_
    has_lemmas = any(t.lemma_ for doc in predicted for t in doc)
    scores = {"upos": round(100 * pos / n, 2)}
    if has_lemmas:
        scores["lemma"] = round(100 * lemma / n, 2)
    return scores


def compare(
    pipeline: str, anchor: str, gold_path: Path, rounds: int, anchor_exclude: tuple = ()
) -> dict:
    nlps = {"senna": spacy.load(pipeline), "anchor": spacy.load(anchor, exclude=anchor_exclude)}
    gold = list(DocBin().from_disk(gold_path).get_docs(nlps["senna"].vocab))
    words = sum(len(doc) for doc in gold)
    results: dict = {"gold": str(gold_path), "words": words, "rounds": rounds}
    results["anchor_components"] = nlps["anchor"].pipe_names
    best = {name: float("inf") for name in nlps}
    predicted: dict[str, list[Doc]] = {}
    for name, nlp in nlps.items():
        _seconds(nlp, gold[:100])  # warm-up
    for _ in range(rounds):
        for name, nlp in nlps.items():
            seconds, predicted[name] = _seconds(nlp, gold)
            best[name] = min(best[name], seconds)
    for name in nlps:
        results[name] = {"pipeline": pipeline if name == "senna" else anchor}
        results[name].update(accuracy(predicted[name], gold))
        results[name]["words_per_second"] = round(words / best[name])
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("pipeline")
    parser.add_argument("anchor")
    parser.add_argument("gold", type=Path)
    parser.add_argument("--output", type=Path, required=True)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--anchor-exclude", default="", help="components to leave out, a,b")
    args = parser.parse_args()
    exclude = tuple(name for name in args.anchor_exclude.split(",") if name)
    results = compare(args.pipeline, args.anchor, args.gold, args.rounds, exclude)
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text(json.dumps(results, indent=2) + "\n", encoding="utf8")
    print(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
