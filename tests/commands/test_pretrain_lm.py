"""`pretrain-lm`: a run from the command line."""

import random

import spacy

from spacy_senna import cli


def _corpus(path):
    rng = random.Random(0)
    nouns = ["cat", "dog", "bird", "horse", "mouse", "fox", "cow", "goat"]
    places = ["Paris", "London", "Berlin", "Rome", "Madrid"]
    lines = [
        f"The {rng.choice(nouns)} sees a {rng.choice(nouns)} in {rng.choice(places)} ."
        for _ in range(1500)
    ]
    path.write_text("\n".join(lines) + "\n", encoding="utf8")
    return path


def test_cli_pretrain(tmp_path, capsys):
    corpus_path = _corpus(tmp_path / "corpus.txt")
    out = tmp_path / "cli-lm"
    cli.main(
        [
            "pretrain-lm",
            str(corpus_path),
            str(out),
            "--max-words",
            "640",
            "--batch-size",
            "64",
            "--validation-words",
            "500",
            "--threads",
            "1",
        ],
    )
    err = capsys.readouterr().err
    assert "✔ Wrote" in err and "paris" not in err.split("✔")[0]
    assert spacy.load(out).vocab.vectors.n_keys > 0
