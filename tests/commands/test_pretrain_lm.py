"""`pretrain-lm`: options generated from the settings, a run from the command line, and
bad inputs and outputs as one line."""

import json
import random
import signal
import subprocess
import sys

import pytest
import spacy

from spacy_senna import cli
from spacy_senna.commands import pretrain_lm
from spacy_senna.lm.settings import PretrainConfig


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


@pytest.fixture
def parsed_config(monkeypatch):
    """`parsed_config(*options)`: the PretrainConfig the command builds from `options`."""
    calls = []
    monkeypatch.setattr(pretrain_lm, "pretrain", lambda *args, **kwargs: calls.append(args))

    def parse(*options):
        cli.main(["pretrain-lm", "text.txt", "out", *options])
        return calls.pop()[2]

    return parse


def test_options_are_the_declared_settings(parsed_config):
    assert parsed_config() == PretrainConfig()
    config = parsed_config(
        "--quiet", "--curriculum", "5,10", "--vocab-size", "10", "--learning-rate", "0.5",
        "--optimizer", "adam", "--max-seconds", "3",
    )  # fmt: skip
    assert config == PretrainConfig(
        progress=False,
        curriculum=[5, 10],
        vocab_size=10,
        learning_rate=0.5,
        optimizer="adam",
        max_seconds=3.0,
    )
    with pytest.raises(SystemExit):
        parsed_config("--optimizer", "rmsprop")


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


def test_pretrain_lm_errors(capsys, tmp_path, afile, fail_line):
    text = tmp_path / "text.txt"
    text.write_text("a b c\n", encoding="utf8")
    missing = tmp_path / "missing.txt"
    assert str(missing) in fail_line(capsys, "pretrain-lm", missing, tmp_path / "lm", "--quiet")
    line = fail_line(capsys, "pretrain-lm", text, afile / "lm", "--quiet")
    assert line.startswith(f"✘ {afile / 'lm'}") and f"{afile} is not a directory" in line


def _started_in_background():
    """What a shell does to a command started with `&`: SIGINT ignored."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


@pytest.mark.slow
@pytest.mark.parametrize("sig, workers", [(signal.SIGTERM, "2"), (signal.SIGINT, "1")])
def test_a_signal_stops_the_run_cleanly(tmp_path, sig, workers):
    """SIGTERM (timeout, job schedulers) and SIGINT, even in the background, stop the run
    like Ctrl-C: checkpoint and vectors written, exit status 0, resumable."""
    corpus_path = _corpus(tmp_path / "corpus.txt")
    out = tmp_path / "lm"
    run = subprocess.Popen(
        [sys.executable, "-m", "spacy_senna", "pretrain-lm", str(corpus_path), str(out),
         "--workers", workers, "--threads", "1", "--epochs", "0", "--max-seconds", "300",
         "--validation-words", "500", "--batch-size", "64", "--eval-every-words", "2000"],
        preexec_fn=_started_in_background, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
    )  # fmt: skip
    lines: list[bytes] = []
    for line in run.stdout:  # ends by itself: the run stops after --max-seconds at most
        lines.append(line)
        if line.startswith(b"words") and b"| 0 w/s" not in line:
            break  # training is under way
    run.send_signal(sig)
    lines += run.stdout.readlines()  # up to the end of the output: the run has exited
    run.wait()
    run.stdout.close()
    assert run.returncode == 0, b"".join(lines).decode()
    meta = json.loads((out / "lm_meta.json").read_text())
    assert meta["stop_reason"] == "interrupted" and meta["words_seen"] > 0
    assert (out.parent / "lm.checkpoints" / "checkpoint.pt").exists()
