"""Encoding raw text into the LM corpus: normalisation, padding, long lines, dictionary."""

import gzip
import random
import re

import numpy
import pytest

from spacy_senna.layers.lexicon import PADDING, UNKNOWN
from spacy_senna.lm.checkpoint import work_dir
from spacy_senna.lm.corpus import CAPS_LEXICON, CorpusSettings, load_or_encode
from spacy_senna.lm.pretrain import pretrain


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


def test_a_file_named_twice_is_read_twice(tmp_path):
    """Naming an input again weights it: its words count, and are trained on, once per name."""
    news, wiki = tmp_path / "news.txt", tmp_path / "wiki.txt"
    news.write_text("shares rose\n", encoding="utf8")
    wiki.write_text("the cat sat on the mat\n", encoding="utf8")
    settings = CorpusSettings(vocab_size=100, window=5)
    once = load_or_encode([wiki, news], tmp_path / "once", settings)
    twice = load_or_encode([wiki, news, news], tmp_path / "twice", settings)
    assert (once.n_train_tokens, twice.n_train_tokens) == (8, 10)
    counts = dict(zip(twice.vocab, twice.counts))
    assert counts["shares"] == counts["rose"] == 2 and counts["cat"] == 1


def test_reading_prints_files_words_and_rate(tmp_path, capsys):
    """While the text is read, a status line (here every 0 s) tells the files read of all,
    the words so far and the rate; without an interval reading is silent."""
    first, second = tmp_path / "first.txt", tmp_path / "second.txt"
    first.write_text("one two three\nfour five\n", encoding="utf8")
    second.write_text("six seven eight\n", encoding="utf8")
    settings = CorpusSettings(vocab_size=8, window=3)
    load_or_encode([first, second], tmp_path / "loud", settings, progress_every=0)
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == 3 + 2  # a line per segment and per file
    status = re.compile(r"Read (\d)/2 file\(s\): (\d) words, [\d,]+ w/s")
    read = [status.fullmatch(line).groups() for line in lines]
    assert read == [("0", "3"), ("0", "5"), ("1", "5"), ("1", "8"), ("2", "8")]
    load_or_encode([first, second], tmp_path / "quiet", settings)
    assert capsys.readouterr().err == ""


def test_long_lines_and_small_vocabulary(tmp_path, capsys, config):
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


@pytest.mark.parametrize(
    "name,damage,problem",
    [
        ("meta.json", b"{", "Expecting property name"),
        ("vocab.json", b"[]", "not a JSON object"),
        ("train.words", None, "missing"),
        ("train.words", b"\x00" * 8, "shorter than meta.json says"),
        ("valid.caps", b"", "not as long as valid.words"),
        ("type2row.npy", b"junk", "This file contains pickled (object) data"),
    ],
)
def test_a_damaged_cache_is_encoded_again(tmp_path, capsys, name, damage, problem):
    text = tmp_path / "t.txt"
    text.write_text("Held out line\nThe PS2 costs 300 dollars\nthe ps3 , the Ps4\n", "utf8")
    settings = CorpusSettings(vocab_size=6, window=5, validation_words=3)
    directory = tmp_path / "enc"
    load_or_encode([text], directory, settings)
    files = {path.name: path.read_bytes() for path in directory.iterdir()}
    if damage is None:
        (directory / name).unlink()
    else:
        (directory / name).write_bytes(damage)
    corpus = load_or_encode([text], directory, settings)
    err = capsys.readouterr().err
    assert err.startswith(f"⚠ {directory / name}: damaged encoded corpus ({problem}")
    assert err.splitlines()[0].endswith("; encoding the corpus again")
    assert {path.name: path.read_bytes() for path in directory.iterdir()} == files
    assert corpus.vocab[:2] == ["ps0", "the"] and corpus.n_train_tokens == 10
