"""Score the attributes spaCy apps read, `token.pos_` (UPOS) and `token.lemma_`, on UD EWT
test, and `doc.noun_chunks` on propbank-ewt's test sentences, each pipeline run on the
corpus' words (gold tokens, nothing else gold).

    python scripts/evaluate_attributes.py corpus/ud/en_ewt-ud-test.spacy PIPELINE... \
        --chunks corpus/ewt/test.spacy --inference-dtype float32 \
        --output metrics/attributes-test.json

UPOS accuracy against UD's UPOS, lemma accuracy as an exact match against UD's LEMMA
(case-sensitive, as spaCy's lemma_acc) and ignoring case, and PTB tag accuracy (`tag_`).
For en_senna (a senna_tagger, an attribute_ruler and a lemmatizer) a second row runs its
attribute_ruler and lemmatizer on the gold PTB tags: what the rules alone lose.
`--chunks`: precision, recall and F1 of `doc.noun_chunks` against the gold NP chunks
(`doc.spans["chunks"]`, CoNLL-2000's base noun phrases from the trees); a dependency
parser's noun chunks follow spaCy's own definition (a possessive's NP included, for one),
so they differ from these by design as well as by error.
`--inference-dtype float32` scores en_senna as a CPU without native bfloat16 computes (the
model card's figures).
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import spacy
from evaluate_open import _examples, _inference_dtype_overrides, write_results
from spacy.language import Language
from spacy.tokens import Doc

from spacy_senna.bundled import resolve_pipeline
from spacy_senna.scoring.counts import prf

COLUMNS = (
    ("tag", "PTB tag"),
    ("pos", "UPOS"),
    ("lemma", "lemma"),
    ("lemma_ci", "lemma (any case)"),
)


def _scores(pairs: list[tuple[Doc, Doc]]) -> dict:
    """Accuracies in % over every token of (predicted, reference) docs with the same words."""
    counts = dict.fromkeys(("tag", "pos", "lemma", "lemma_ci"), 0)
    total = 0
    for predicted, reference in pairs:
        assert [t.text for t in predicted] == [t.text for t in reference]
        for got, gold in zip(predicted, reference):
            total += 1
            counts["tag"] += got.tag_ == gold.tag_
            counts["pos"] += got.pos_ == gold.pos_
            counts["lemma"] += got.lemma_ == gold.lemma_
            counts["lemma_ci"] += got.lemma_.lower() == gold.lemma_.lower()
    return {"tokens": total, **{k: round(100 * v / total, 2) for k, v in counts.items()}}


def _noun_chunk_scores(nlp: Language, corpus: Path) -> dict:
    """P/R/F (%) of `doc.noun_chunks` against the gold NP chunks of a corpus' docs."""
    examples = _examples(nlp, corpus)
    docs = nlp.pipe(eg.predicted for eg in examples)
    found = gold = correct = 0
    for doc, eg in zip(docs, examples):
        predicted = {(c.start, c.end) for c in doc.noun_chunks}
        reference = {(s.start, s.end) for s in eg.reference.spans["chunks"] if s.label_ == "NP"}
        found, gold = found + len(predicted), gold + len(reference)
        correct += len(predicted & reference)
    scores = prf(correct, gold, found)
    return {"chunks": gold, **{k: round(100 * scores[k], 2) for k in ("p", "r", "f")}}


def _on_gold_tags(nlp: Language, references: list[Doc]) -> list[tuple[Doc, Doc]]:
    """The pipeline's attribute_ruler and lemmatizer alone, on the reference's PTB tags."""
    steps = [nlp.get_pipe(name) for name in ("attribute_ruler", "lemmatizer")]
    pairs = []
    for reference in references:
        words = [t.text for t in reference]
        spaces = [bool(t.whitespace_) for t in reference]
        doc = Doc(nlp.vocab, words=words, spaces=spaces, tags=[t.tag_ for t in reference])
        for step in steps:
            doc = step(doc)
        pairs.append((doc, reference))
    return pairs


def evaluate(
    corpus: Path, pipeline: str, inference_dtype: str | None = None, chunks: Path | None = None
) -> dict:
    """The scores of one pipeline (and of its rules on gold tags where it has them; and of
    its noun chunks on `chunks`)."""
    path = resolve_pipeline(pipeline)
    overrides = _inference_dtype_overrides(path, inference_dtype) if Path(path).is_dir() else {}
    nlp = spacy.load(path, config=overrides)
    examples = _examples(nlp, corpus)
    start = time.perf_counter()
    docs = list(nlp.pipe(eg.predicted for eg in examples))
    seconds = time.perf_counter() - start
    references = [eg.reference for eg in examples]
    results = {
        "pipeline": pipeline,
        "components": nlp.pipe_names,
        "seconds": round(seconds, 1),
        **_scores(list(zip(docs, references))),
    }
    if {"senna_tagger", "attribute_ruler", "lemmatizer"} <= set(nlp.pipe_names):
        results["rules_on_gold_tags"] = _scores(_on_gold_tags(nlp, references))
    if chunks is not None:
        results["noun_chunks"] = _noun_chunk_scores(nlp, chunks)
    return results


def table(results: list[dict]) -> str:
    """A markdown table of the accuracies."""
    chunks = any("noun_chunks" in result for result in results)
    head = ["pipeline", *(title for _, title in COLUMNS), *(["noun chunks F1"] if chunks else [])]
    lines = ["| " + " | ".join(head) + " |", "|---" + "|---:" * (len(head) - 1) + "|"]
    for result in results:
        name = Path(result["pipeline"]).name
        rows = [(name, result)]
        if "rules_on_gold_tags" in result:
            rows.append((f"{name}, its rules on gold PTB tags", result["rules_on_gold_tags"]))
        for title, scores in rows:
            cells = [title, *(f"{scores[key]:.2f}" for key, _ in COLUMNS)]
            if chunks:
                nps = scores.get("noun_chunks")
                cells.append(f"{nps['f']:.2f}" if nps else "–")
            lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("corpus", type=Path, help="UD EWT test as converted (.spacy)")
    parser.add_argument("pipelines", nargs="+", metavar="PIPELINE")
    parser.add_argument(
        "--inference-dtype", choices=["float32", "bfloat16"], help="override the configs'"
    )
    parser.add_argument(
        "--chunks", type=Path, help="also doc.noun_chunks on this corpus' gold NP chunks"
    )
    parser.add_argument("--output", type=Path, required=True)
    args = parser.parse_args()
    results = [
        evaluate(args.corpus, name, args.inference_dtype, args.chunks) for name in args.pipelines
    ]
    corpora = {
        "corpus": str(args.corpus),
        "chunks_corpus": str(args.chunks) if args.chunks else None,
    }
    write_results({**corpora, "results": results}, args.output)
    print(table(results))


if __name__ == "__main__":
    main()
