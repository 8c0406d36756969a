"""Score a pipeline on raw text: the gold Docs' surface text (multiword tokens written as one
form) read through the language's spaCy tokenizer and the treebank's contraction split, tags,
lemmas, entities and chunks aligned to the gold words through surface tokens
(spacy_senna/scoring/surface.py).

    python scripts/evaluate_raw.py PIPELINE GOLD.spacy TABLE.json --output metrics/NAME.json
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import spacy
from spacy.tokens import DocBin

from spacy_senna.corpora.converters.contractions import ContractionTable
from spacy_senna.pipeline.syntactic_words import SyntacticWordTokenizer
from spacy_senna.scoring.surface import score_raw_text


def evaluate_raw(pipeline: str, gold: Path, table: Path, output: Path) -> dict:
    """Write and return the raw-text scores of `pipeline` on `gold` (tags if it has a
    tagger, entities if it has a ner)."""
    nlp = spacy.load(pipeline)
    if not isinstance(nlp.tokenizer, SyntacticWordTokenizer):
        nlp.tokenizer = SyntacticWordTokenizer(
            nlp.vocab, nlp.tokenizer, ContractionTable.from_disk(table)
        )
    docs = list(DocBin().from_disk(gold).get_docs(nlp.vocab))
    results = {"pipeline": pipeline, "gold": str(gold), "unit": "raw text, gold words"}
    scores = score_raw_text(nlp, docs)
    names = set(nlp.pipe_names)
    if not names & {"senna_tagger", "tagger"}:
        del scores["tag_acc"]
    if not names & {"senna_ner", "ner"}:
        del scores["ents_p"], scores["ents_r"], scores["ents_f"]
    if not names & {"lemmatizer", "trainable_lemmatizer"}:
        del scores["lemma_acc"]
    results.update(scores)
    output.parent.mkdir(parents=True, exist_ok=True)
    output.write_text(json.dumps(results, indent=2) + "\n", encoding="utf8")
    print(json.dumps(results, indent=2))
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("pipeline")
    parser.add_argument("gold", type=Path)
    parser.add_argument("table", type=Path)
    parser.add_argument("--output", type=Path, required=True)
    args = parser.parse_args()
    evaluate_raw(args.pipeline, args.gold, args.table, args.output)


if __name__ == "__main__":
    main()
