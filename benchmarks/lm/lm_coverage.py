"""How much of each task's test words a pretraining dictionary covers.

usage: python benchmarks/lm/lm_coverage.py --dictionary NAME=PATH [NAME=PATH ...]
       --task NAME=TRAIN.spacy,TEST.spacy [...] [--json FILE]

A dictionary is an encoded LM corpus directory (`vectors/lm-wiki.checkpoints/corpus`:
its vocab.json) or a vectors pipeline (its keys). Words are compared the way the
components look them up (`normalize_word`: lowercase, digit runs -> 0). For each task and
dictionary it prints the share of test tokens and of distinct test words the dictionary
holds, the same for the test words that never occur in the task's training data (the ones
only pretraining can help with), and records them as JSON.
"""

import argparse
import json
from pathlib import Path
from typing import Dict, Set

import spacy
from spacy.tokens import DocBin

from spacy_senna.features import normalize_word


def dictionary_words(path: Path) -> Set[str]:
    """The words of an encoded LM corpus or of a vectors pipeline."""
    vocab_json = path / "vocab.json"
    if vocab_json.exists():
        return set(json.loads(vocab_json.read_text(encoding="utf8"))["words"])
    nlp = spacy.load(path)
    return {nlp.vocab.strings[key] for key in nlp.vocab.vectors.keys()}


def task_words(path: Path) -> list:
    """Every token of a .spacy file, normalised."""
    docs = DocBin().from_disk(path).get_docs(spacy.blank("en").vocab)
    return [normalize_word(token.text) for doc in docs for token in doc]


def coverage(test: list, train: Set[str], words: Set[str]) -> Dict[str, float]:
    types = set(test)
    unseen_tokens = [w for w in test if w not in train]
    unseen_types = types - train

    def share(items) -> float:
        return round(100 * sum(w in words for w in items) / max(1, len(items)), 2)

    return {
        "tokens": share(test),
        "types": share(types),
        "unseen_tokens": share(unseen_tokens),
        "unseen_types": share(unseen_types),
        "n_unseen_tokens": len(unseen_tokens),
    }


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--dictionary", nargs="+", required=True, metavar="NAME=PATH")
    p.add_argument("--task", nargs="+", required=True, metavar="NAME=TRAIN,TEST")
    p.add_argument("--json", type=Path)
    args = p.parse_args()
    dictionaries = {
        name: dictionary_words(Path(path))
        for name, path in (item.split("=", 1) for item in args.dictionary)
    }
    results = {}
    print("| task | dictionary | size | test tokens | test words | unseen-in-train tokens |")
    print("|---|---|---:|---:|---:|---:|")
    for name, paths in (item.split("=", 1) for item in args.task):
        train_path, test_path = paths.split(",")
        train, test = set(task_words(Path(train_path))), task_words(Path(test_path))
        for dict_name, words in dictionaries.items():
            row = coverage(test, train, words)
            results[f"{name}/{dict_name}"] = {"size": len(words), **row}
            print(
                f"| {name} | {dict_name} | {len(words):,} | {row['tokens']:.2f}% | "
                f"{row['types']:.2f}% | {row['unseen_tokens']:.2f}% "
                f"(of {row['n_unseen_tokens']:,}) |"
            )
    if args.json:
        args.json.write_text(json.dumps(results, indent=2), encoding="utf8")


if __name__ == "__main__":
    main()
