"""Several worker processes training one shared model (`workers` > 1)."""

import json
import os
import select
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import spacy

from spacy_senna import cli
from spacy_senna.lm import hogwild
from spacy_senna.lm.checkpoint import work_dir
from spacy_senna.lm.pretrain import pretrain
from spacy_senna.lm.ranking_model import RankingLM
from spacy_senna.lm.settings import PretrainConfig


@pytest.mark.slow
def test_two_workers_learn_checkpoint_and_resume(tmp_path, corpus_path, config, nouns):
    out = tmp_path / "lm"
    first = pretrain(
        [corpus_path],
        out,
        config(workers=2, max_words=12000, vocab_size=20, curriculum=[10, 20]),
    )
    assert first["workers"] == 2 and first["threads"] == 1
    assert first["stop_reason"] == "limit reached"
    assert first["words_per_cpu_second"] > 0 and first["words_per_second"] > 0
    # at most one batch past the limit per worker
    assert 12000 <= first["words_seen"] < 12000 + 2 * 64
    curve = [p["valid_loss"] for p in first["validation"]]
    assert curve[0] > 0.8 and curve[-1] < 0.5 * curve[0]
    assert [p["dictionary"] for p in first["validation"]][-1] == 20
    assert (work_dir(out) / "checkpoint.pt").exists()
    # resumed through the command line (the option is generated from the setting)
    cli.main(
        [
            "pretrain-lm",
            str(corpus_path),
            str(out),
            "--resume",
            "--workers",
            "2",
            "--threads",
            "1",
            "--vocab-size",
            "20",
            "--curriculum",
            "10,20",
            "--batch-size",
            "64",
            "--negatives",
            "4",
            "--validation-words",
            "1000",
            "--eval-every-words",
            "2000",
            "--checkpoint-every-seconds",
            "0",
            "--learning-rate",
            "0.1",
            "--embed-init",
            "1.0",
            "--epochs",
            "0",
            "--max-words",
            "20000",
            "--quiet",
        ]
    )
    resumed = json.loads((out / "lm_meta.json").read_text())
    assert 20000 <= resumed["words_seen"] < 20000 + 2 * 64
    points = resumed["validation"]
    assert points[: len(first["validation"])] == first["validation"]
    assert points[-1]["valid_loss"] < 0.3 * curve[0]
    assert spacy.load(out).vocab.vectors.shape == (20, 50)


def test_a_one_process_checkpoint_resumes_with_two_workers(tmp_path, corpus_path, config):
    out = tmp_path / "lm"
    pretrain([corpus_path], out, config(max_words=1280))
    meta = pretrain([corpus_path], out, config(workers=2, max_words=2560), resume=True)
    assert 2560 <= meta["words_seen"] < 2560 + 2 * 64 and meta["workers"] == 2
    assert [p["words"] for p in meta["validation"]][:2] == [0, 1280]


def test_workers_need_sgd_and_the_cpu(tmp_path, corpus_path, config):
    with pytest.raises(ValueError, match="2 workers need the sgd optimizer, not adam"):
        pretrain([corpus_path], tmp_path / "a", config(workers=2, optimizer="adam"))
    with pytest.raises(ValueError, match="2 workers train on the CPU, not cuda|cannot be used"):
        pretrain([corpus_path], tmp_path / "b", config(workers=2, device="cuda"))
    with pytest.raises(ValueError, match="workers must be at least 1, not 0"):
        pretrain([corpus_path], tmp_path / "c", config(workers=0))
    assert not (tmp_path / "b").exists()


def test_workers_share_the_cores(monkeypatch):
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0, 1, 2, 3}, raising=False)
    assert hogwild.worker_threads(PretrainConfig(workers=2)) == 2
    assert hogwild.worker_threads(PretrainConfig(workers=8)) == 1
    assert hogwild.worker_threads(PretrainConfig(workers=2, threads=3)) == 3


def test_too_little_shared_memory_is_a_clear_error(monkeypatch, tmp_path):
    usage = shutil.disk_usage(tmp_path)._replace(free=1000)
    monkeypatch.setattr(hogwild.shutil, "disk_usage", lambda path: usage)
    with pytest.raises(ValueError, match=r"need 19 MiB of shared memory .* 0 MiB free"):
        hogwild._check_shared_memory(RankingLM(100_002, 6), shm=tmp_path)


def _running(pid: int) -> bool:
    """Whether process `pid` exists and has not exited (a zombie has exited)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def _wait_for_exit(pids: list[int], seconds: float) -> list[int]:
    """Wait until the processes `pids` (not children of this one) exit; those left."""
    deadline = time.monotonic() + seconds
    for pid in pids:
        try:
            fd = os.pidfd_open(pid)
        except ProcessLookupError:
            continue
        try:
            select.select([fd], [], [], max(0.0, deadline - time.monotonic()))
        finally:
            os.close(fd)
    return [pid for pid in pids if _running(pid)]


@pytest.mark.slow
@pytest.mark.skipif(not hasattr(os, "pidfd_open"), reason="needs Linux pidfds and /proc")
def test_workers_stop_when_the_main_process_is_killed(tmp_path, corpus_path):
    main = subprocess.Popen(
        [sys.executable, "-m", "spacy_senna", "pretrain-lm", str(corpus_path), str(tmp_path / "lm"),
         "--workers", "2", "--threads", "1", "--epochs", "0", "--max-seconds", "120",
         "--validation-words", "1000", "--batch-size", "64"],
        stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    # the first validation line comes once both workers have said they are ready
    for line in main.stderr:
        if line.startswith("words "):
            break
    children = Path(f"/proc/{main.pid}/task/{main.pid}/children").read_text().split()
    workers = [
        int(pid) for pid in children if "spawn_main" in Path(f"/proc/{pid}/cmdline").read_text()
    ]
    assert len(workers) == 2, "the workers did not start"
    main.kill()
    main.wait()
    # a worker sees within a second that the main process is gone; the deadline only
    # bounds a hang, it is no estimate of how long that takes on a loaded machine
    left = _wait_for_exit(workers, 300)
    main.stderr.close()
    for pid in left:
        os.kill(pid, signal.SIGKILL)
    assert not left, "workers kept running after the main process was killed"
