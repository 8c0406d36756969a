"""LM pretraining (paper §4): corpus streaming, ranking model, training, export."""

import argparse
import gzip
import json
import random

import numpy
import pytest
import spacy
import torch
from spacy.training.initialize import load_vectors_into_model

from spacy_senna import cli
from spacy_senna.commands import import_vectors, nearest_neighbours, pretrain_lm
from spacy_senna.lexicon import PADDING, UNKNOWN
from spacy_senna.lm.corpus import CAPS_LEXICON, CorpusSettings, load_or_encode
from spacy_senna.lm.export import import_text_vectors, read_vectors, write_vectors
from spacy_senna.lm.pretrain import PretrainConfig, pretrain, work_dir
from spacy_senna.lm.ranking_model import RankingLM, ranking_loss

NOUNS = ["cat", "dog", "bird", "horse", "mouse", "fox", "cow", "goat"]
VERBS = ["sees", "chases", "likes", "bites", "finds"]
ADJS = ["big", "small", "red", "old", "young"]
PLACES = ["Paris", "London", "Berlin", "Rome", "Madrid"]


def make_corpus(path, n_lines=1500, seed=0):
    """A tiny language with structure a window model can learn."""
    rng = random.Random(seed)
    lines = []
    for _ in range(n_lines):
        lines.append(
            f"The {rng.choice(ADJS)} {rng.choice(NOUNS)} {rng.choice(VERBS)} a "
            f"{rng.choice(NOUNS)} in {rng.choice(PLACES)} in {rng.randint(1900, 2020)} ."
        )
    path.write_text("\n".join(lines) + "\n", encoding="utf8")
    return path


def config(**overrides):
    settings = {
        "vocab_size": 1000,
        "batch_size": 64,
        "negatives": 4,
        "validation_words": 1000,
        "eval_every_words": 2000,
        "checkpoint_every_seconds": 0,
        "learning_rate": 0.1,
        "embed_init": 1.0,
        "epochs": 0,
        "max_words": 4000,
        "progress": False,
        "threads": 1,
    }
    settings.update(overrides)
    return PretrainConfig(**settings)


def run_command(module, argv):
    parser = argparse.ArgumentParser()
    module.add_parser(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(argv)
    args.func(args)


@pytest.fixture(scope="module")
def corpus_path(tmp_path_factory):
    return make_corpus(tmp_path_factory.mktemp("text") / "corpus.txt")


@pytest.fixture(scope="module")
def trained(tmp_path_factory, corpus_path):
    out = tmp_path_factory.mktemp("runs") / "lm"
    meta = pretrain([corpus_path], out, config(max_words=30000, eval_every_words=5000))
    return out, meta


def test_score_candidates_equals_full_windows():
    torch.manual_seed(0)
    model = RankingLM(50, len(CAPS_LEXICON), window=5, hidden=7)
    words = torch.randint(0, 50, (6, 5))
    caps = torch.randint(0, len(CAPS_LEXICON), (6, 5))
    candidates = torch.randint(2, 50, (6, 3))
    fast = model.score_candidates(words, caps, candidates)
    for j in range(3):
        corrupted = words.clone()
        corrupted[:, 2] = candidates[:, j]
        assert torch.allclose(fast[:, j], model.score(corrupted, caps), atol=1e-5)
    scores = torch.tensor([[2.0, 0.5, 1.5, 3.0]])
    loss, pairs = ranking_loss(scores, torch.tensor([[7, 8, 7, 9]]))
    # pairs (2, 0.5) -> 0, (2, 3.0) -> 2; the negative equal to the true word is masked
    assert float(loss) == pytest.approx(2.0) and int(pairs) == 2


def test_corpus_windows_pad_lines_and_normalise(tmp_path):
    text = tmp_path / "t.txt.gz"
    with gzip.open(text, "wt", encoding="utf8") as f:
        f.write("Held out line\nThe PS2 costs 300 dollars\n\nthe ps3 , the Ps4\n")
    corpus = load_or_encode(
        [text],
        tmp_path / "enc",
        CorpusSettings(vocab_size=100, window=5, validation_words=1),
    )
    assert corpus.n_valid_tokens == 3 and corpus.n_train_tokens == 10
    assert corpus.vocab[:2] == ["ps0", "the"]  # 3 each: ties alphabetically
    assert "held" not in corpus.vocab  # held-out words are not counted
    positions = numpy.flatnonzero(numpy.asarray(corpus.words) != PADDING)
    words, caps = corpus.windows(positions, corpus.n_rows)
    strings = ["<PAD>", "<UNK>"] + corpus.vocab
    first = [strings[i] for i in words[0]]
    assert first == ["<PAD>", "<PAD>", "the", "ps0", "costs"]
    last = [strings[i] for i in words[-1]]
    assert last == [",", "the", "ps0", "<PAD>", "<PAD>"]  # no window crosses a line
    assert caps[0, 2] == CAPS_LEXICON.get("initcap")
    assert caps[0, 3] == CAPS_LEXICON.get("allcaps")
    assert caps[-1, 2] == CAPS_LEXICON.get("initcap")
    # a curriculum stage maps words outside its dictionary to UNKNOWN
    small, _ = corpus.windows(positions, 3)
    assert set(small.flatten()) <= {PADDING, UNKNOWN, 2}


def test_loss_falls_and_output_is_a_vectors_pipeline(trained):
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
    assert words[int(dist.argmin())] in NOUNS


def test_max_words_stops_cleanly(tmp_path, corpus_path):
    out = tmp_path / "lm"
    meta = pretrain([corpus_path], out, config(max_words=640, epochs=50, batch_size=64))
    assert meta["words_seen"] == 640 and meta["stop_reason"] == "limit reached"
    assert spacy.load(out).vocab.vectors.n_keys > 0
    assert (work_dir(out) / "checkpoint.pt").exists()
    assert not [p for p in tmp_path.iterdir() if ".tmp" in p.name]


def test_resume_continues_exactly(tmp_path, corpus_path):
    straight = pretrain([corpus_path], tmp_path / "a", config(max_words=3200))
    pretrain([corpus_path], tmp_path / "b", config(max_words=1600))
    resumed = pretrain([corpus_path], tmp_path / "b", config(max_words=3200), resume=True)
    assert resumed["words_seen"] == straight["words_seen"] == 3200
    _, table_a = read_vectors(tmp_path / "a")
    _, table_b = read_vectors(tmp_path / "b")
    numpy.testing.assert_allclose(table_a, table_b, atol=1e-6)
    assert resumed["validation"][0] == straight["validation"][0]


def test_resume_with_other_settings_errors(tmp_path, corpus_path):
    pretrain([corpus_path], tmp_path / "lm", config(max_words=640))
    with pytest.raises(ValueError, match="negatives: checkpoint 4, now 8"):
        pretrain([corpus_path], tmp_path / "lm", config(negatives=8), resume=True)
    with pytest.raises(ValueError, match="no checkpoint"):
        pretrain([corpus_path], tmp_path / "other", config(), resume=True)


def test_bad_inputs_are_clear_errors(tmp_path, capsys):
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


def test_long_lines_and_small_vocabulary(tmp_path, capsys):
    text = tmp_path / "long.txt"
    rng = random.Random(1)
    line = " ".join(rng.choice(["a", "b", "c", "dd"]) for _ in range(40000))  # 100k chars
    text.write_text("x y\n" + line + "\n", encoding="utf8")
    meta = pretrain(
        [text],
        tmp_path / "lm",
        config(vocab_size=50, validation_words=2, max_line_tokens=100, max_words=512),
    )
    assert "fewer than the requested dictionary of 50" in capsys.readouterr().err
    assert meta["final_dictionary"] == 4 and meta["corpus"]["train_words"] == 40000
    corpus = load_or_encode(
        [text],
        work_dir(tmp_path / "lm") / "corpus",
        CorpusSettings(vocab_size=50, validation_words=2, max_line_tokens=100),
    )
    assert corpus.meta["segments"] == 1 + 400  # the long line became padded segments


@pytest.mark.parametrize("init", ["random", "unknown"])
def test_curriculum_grows_the_dictionary(tmp_path, corpus_path, init):
    meta = pretrain(
        [corpus_path],
        tmp_path / "lm",
        config(
            vocab_size=20,
            curriculum=[5, 10, 20],
            curriculum_init=init,
            max_words=3000,
            eval_every_words=500,
        ),
    )
    sizes = [p["dictionary"] for p in meta["validation"]]
    assert sizes[0] == 5 and sizes[-1] == 20 and 10 in sizes and sizes == sorted(sizes)
    assert spacy.load(tmp_path / "lm").vocab.vectors.shape == (20, 50)
    with pytest.raises(ValueError, match="must end at the dictionary size"):
        pretrain([corpus_path], tmp_path / "x", config(vocab_size=30, curriculum=[5, 20]))


def test_cli_pretrain_and_nearest_neighbours(tmp_path, corpus_path, trained, capsys):
    out = tmp_path / "cli-lm"
    run_command(
        pretrain_lm,
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
    run_command(
        nearest_neighbours,
        ["nearest-neighbours", str(trained[0]), "Dog", "zzz", "--k", "3"],
    )
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("dog (rank ") and lines[0].count("(") == 4
    assert lines[1] == "zzz: (no vector)"


def test_import_vectors_rekeys_by_normalized_word(tmp_path, capsys):
    text = tmp_path / "vec.txt"
    text.write_text(
        "5 3\nParis 1 0 0 \nparis 2 0 0 \nPS2 0 1 0 \nps3 0 2 0 \nnew york 0 0 1 \n",
        encoding="utf8",
    )
    run_command(import_vectors, ["import-vectors", str(text), str(tmp_path / "vec")])
    assert "3 vectors" in capsys.readouterr().out
    words, table = read_vectors(tmp_path / "vec")
    assert words == ["paris", "ps0", "new york"]
    numpy.testing.assert_array_equal(table[:2], [[1, 0, 0], [0, 1, 0]])  # first form wins
    glove = tmp_path / "glove.txt"
    glove.write_text("the 0.1 0.2\nThe 0.3 0.4\nof 0.5\n", encoding="utf8")
    with pytest.raises(ValueError, match="line 3: 1 values where 2 were expected"):
        import_text_vectors(glove, tmp_path / "g")
    with pytest.raises(ValueError, match="does not look like UTF-8"):
        import_text_vectors(_binary(tmp_path), tmp_path / "g")
    assert not (tmp_path / "g").exists()


def test_write_vectors_replaces_atomically(tmp_path):
    out = tmp_path / "v"
    write_vectors(["a", "b"], numpy.eye(2, dtype="float32"), out, name="t")
    write_vectors(["c"], numpy.ones((1, 2), dtype="float32"), out, name="t")
    assert read_vectors(out)[0] == ["c"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["v"]


def _binary(tmp_path):
    path = tmp_path / "vectors.bin"
    path.write_bytes(b"2 3\n" + bytes(range(256)))
    return path
