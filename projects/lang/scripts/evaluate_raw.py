"""Score a pipeline on raw text: the gold Docs' surface text (multiword tokens written as one
form) read through the language's spaCy tokenizer and the treebank's contraction split, tags,
lemmas, entities and chunks aligned to the gold words through surface tokens
(spacy_senna/scoring/surface.py). With `--srl UP.spacy --srl-treebank TREEBANK.spacy` also
SRL on the UP sentences, which keep no multiword tokens: each takes those of the treebank
sentence with its sent_id where their words are the same (the others are left out and
counted).

    python scripts/evaluate_raw.py PIPELINE GOLD.spacy TABLE.json --output metrics/NAME.json
        [--srl UP_TEST.spacy --srl-treebank TREEBANK_TEST.spacy]
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import spacy
from spacy.tokens import Doc, DocBin
from spacy.vocab import Vocab

from spacy_senna.corpora.converters.contractions import ContractionTable
from spacy_senna.corpora.converters.rows import SENT_ID_KEY
from spacy_senna.corpora.converters.ud import MULTIWORD_KEY
from spacy_senna.pipeline.syntactic_words import SyntacticWordTokenizer
from spacy_senna.scoring.surface import score_raw_srl, score_raw_text


def with_multiword_tokens(docs: list[Doc], treebank: list[Doc]) -> tuple[list[Doc], int]:
    """The `docs` that the treebank holds (same sent_id, same words), each given the
    treebank sentence's multiword tokens; and how many were left out."""
    by_id = {doc.user_data.get(SENT_ID_KEY): doc for doc in treebank}
    kept = []
    for doc in docs:
        match = by_id.get(doc.user_data.get(SENT_ID_KEY))
        if match is not None and [t.text for t in match] == [t.text for t in doc]:
            doc.user_data[MULTIWORD_KEY] = match.user_data.get(MULTIWORD_KEY, [])
            kept.append(doc)
    return kept, len(docs) - len(kept)


def _read(path: Path, vocab: Vocab) -> list[Doc]:
    return list(DocBin().from_disk(path).get_docs(vocab))


def evaluate_raw(
    pipeline: str,
    gold: Path,
    table: Path,
    output: Path,
    srl: Path | None = None,
    srl_treebank: Path | None = None,
) -> dict:
    """Write and return the raw-text scores of `pipeline` on `gold` (tags if it has a
    tagger, entities if it has a ner; SRL on `srl` if it has senna_srl)."""
    nlp = spacy.load(pipeline)
    if not isinstance(nlp.tokenizer, SyntacticWordTokenizer):
        nlp.tokenizer = SyntacticWordTokenizer(
            nlp.vocab, nlp.tokenizer, ContractionTable.from_disk(table)
        )
    docs = _read(gold, nlp.vocab)
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
    if srl is not None and "senna_srl" in names:
        if srl_treebank is None:
            raise SystemExit("✘ --srl needs --srl-treebank (the multiword tokens come from it)")
        frames, left_out = with_multiword_tokens(
            _read(srl, nlp.vocab), _read(srl_treebank, nlp.vocab)
        )
        results["srl"] = {
            "gold": str(srl),
            "sentences": len(frames),
            "sentences_left_out": left_out,
            **score_raw_srl(nlp, frames),
        }
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
    parser.add_argument("--srl", type=Path, help="UP sentences (.spacy) to score SRL on")
    parser.add_argument("--srl-treebank", type=Path, help="the treebank sentences of --srl")
    args = parser.parse_args()
    evaluate_raw(args.pipeline, args.gold, args.table, args.output, args.srl, args.srl_treebank)


if __name__ == "__main__":
    main()
