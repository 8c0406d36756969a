"""`pretrain` end to end: the loss falls and the output is a usable vectors pipeline."""

import json

import numpy
import pytest
import spacy
from spacy.training.initialize import load_vectors_into_model

from spacy_senna import cli
from spacy_senna.lm.pretrain import pretrain
from spacy_senna.lm.vectors_pipeline import read_vectors


def test_loss_falls_and_output_is_a_vectors_pipeline(trained, nouns):
    out, meta = trained
    curve = [p["valid_loss"] for p in meta["validation"]]
    assert curve[0] > 0.8 and curve[-1] < 0.5 * curve[0]
    nlp = spacy.load(out)
    vectors = nlp.vocab.vectors
    keys = {nlp.vocab.strings[k] for k in vectors.key2row}
    assert vectors.shape[1] == 50 and len(keys) == vectors.shape[0]
    assert {"the", "paris", "0", "cat"} <= keys  # normalize_word forms only
    assert not any(k != k.lower() or any(c in k for c in "123456789") for k in keys)
    assert not keys & {"<PADDING>", "<UNKNOWN>"}
    saved = json.loads((out / "lm_meta.json").read_text())
    assert saved["words_seen"] >= 30000 and saved["validation"] == meta["validation"]
    target = spacy.blank("en")
    load_vectors_into_model(target, out)
    assert target.vocab.vectors.shape == vectors.shape
    assert "paris" in target.vocab.strings
    # similar words are close: a noun's nearest neighbour is a noun
    words, table = read_vectors(out)
    assert words[0] == "in"  # most frequent first
    row = {w: i for i, w in enumerate(words)}
    dist = numpy.linalg.norm(table - table[row["cat"]], axis=1)
    dist[row["cat"]] = numpy.inf
    assert words[int(dist.argmin())] in nouns


def test_bad_inputs_are_clear_errors(tmp_path, capsys, config):
    empty = tmp_path / "empty.txt"
    empty.write_text("\n  \n", encoding="utf8")
    with pytest.raises(ValueError, match="no words"):
        pretrain([empty], tmp_path / "o1", config())
    binary = tmp_path / "model.bin"
    binary.write_bytes(bytes(range(256)) * 10)
    with pytest.raises(ValueError, match="does not look like UTF-8 text"):
        pretrain([binary], tmp_path / "o2", config())
    assert not (tmp_path / "o1").exists() and not (tmp_path / "o2").exists()
    # through the CLI: "✘ message" and exit status 1
    with pytest.raises(SystemExit) as exc:
        cli.main(["pretrain-lm", str(binary), str(tmp_path / "o3"), "--quiet"])
    assert exc.value.code == 1
    assert "✘" in capsys.readouterr().err


def test_the_vectors_pipeline_is_written_in_the_language_asked_for(tmp_path, corpus_path, config):
    """`--lang pt`: a blank Portuguese pipeline, which spaCy loads into a Portuguese one
    (it refuses vectors of another language), its words read by Portuguese rules with
    `--tokenizer spacy`; an unknown code is named before any work."""
    out = tmp_path / "lm-pt"
    pretrain([corpus_path], out, config(max_words=2000, lang="pt", tokenizer="spacy"))
    assert spacy.load(out).lang == "pt"
    target = spacy.blank("pt")
    load_vectors_into_model(target, out)
    assert target.vocab.vectors.shape[0] > 0
    with pytest.raises(ValueError, match="Unknown language 'xx-nope'"):
        pretrain([corpus_path], tmp_path / "bad", config(lang="xx-nope"))
    assert not (tmp_path / "bad").exists()
