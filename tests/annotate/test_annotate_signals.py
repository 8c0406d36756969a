"""SIGTERM and SIGINT stop `annotate` at once: one line, 128 + the signal, no process of
the run left, nothing written after it, the lock released.

Each test starts the command in a session of its own, so every process of the run, the
workers included, shares the driver's session id.
"""

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

TEXT = "John Smith visited Paris today.\nMary saw the big house in Berlin.\n"
#: the longest any test waits for the run to get somewhere or to stop (seconds)
DEADLINE = 40
MESSAGE = re.compile(
    r"interrupted: (\d+) of (\d+) shards complete; rerun the same command to resume"
)


def session_processes(session: int):
    """The ids of the live processes in `session` (zombies included until reaped)."""
    found = []
    for entry in Path("/proc").iterdir():
        try:
            stat = (entry / "stat").read_text()
        except (OSError, ValueError):
            continue
        if entry.name.isdigit() and int(stat.rpartition(")")[2].split()[3]) == session:
            found.append(int(entry.name))
    return found


def start(pipeline, text_path, out, *options):
    return subprocess.Popen(
        [sys.executable, "-m", "spacy_senna", "annotate", str(pipeline), str(text_path)]
        + ["-o", str(out), "--progress", "lines", *options],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )


def wait_for(condition, run):
    deadline = time.monotonic() + DEADLINE
    while not condition():
        assert run.poll() is None, f"the run ended early: {run.stderr.read()}"
        assert time.monotonic() < deadline, "the run did not get under way"
        time.sleep(0.05)


def stop(run, signum):
    """Signal the run (SIGINT as a terminal's Ctrl-C does: its whole process group);
    its stderr, once it has ended, and how long that took."""
    sent = time.monotonic()
    if signum == signal.SIGINT:
        os.killpg(run.pid, signum)
    else:
        run.send_signal(signum)
    try:
        _, err = run.communicate(timeout=DEADLINE)
    finally:
        for pid in session_processes(run.pid):  # never leave a stray run behind
            os.kill(pid, signal.SIGKILL)
    return err, time.monotonic() - sent


def check_stopped(run, err, signum, out):
    """One line after the progress lines, no traceback, nothing left running or written;
    (complete shards, all shards)."""
    assert run.returncode == 128 + signum, err
    lines = [line for line in err.splitlines() if not line.startswith("[")]
    assert len(lines) == 1 and MESSAGE.fullmatch(lines[0]), err
    written = sorted(out.glob("*.senna"))
    complete, total = map(int, MESSAGE.fullmatch(lines[0]).groups())
    assert complete == len(written)
    deadline = time.monotonic() + 5  # the resource tracker ends once its pipe closes
    while session_processes(run.pid) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert session_processes(run.pid) == []
    time.sleep(1)
    assert sorted(out.glob("*.senna")) == written  # nothing written after the run ended
    assert not list(out.glob("*.partial-*")) and not (out / ".annotate.lock").exists()
    return complete, total


@pytest.mark.slow
@pytest.mark.parametrize(
    "signum,n_process",
    [
        (signal.SIGTERM, "1"),
        (signal.SIGINT, "1"),
        pytest.param(signal.SIGTERM, "2", marks=pytest.mark.forks),
        pytest.param(signal.SIGINT, "2", marks=pytest.mark.forks),
    ],
)
def test_a_signal_stops_the_run_and_its_workers(pipeline_dir, write, tmp_path, signum, n_process):
    # the driver died at once without a word while its workers went on writing shards
    # (SIGTERM), or printed a traceback from every process (SIGINT)
    text = write("a.txt", TEXT * 2000)  # 45 shards
    out = tmp_path / "out"
    run = start(pipeline_dir, text, out, "--shard-size", "0.003", "-n", n_process)
    wait_for(lambda: list(out.glob("*.senna")), run)
    err, seconds = stop(run, signum)
    complete, total = check_stopped(run, err, signum, out)
    assert 0 < complete < total
    assert seconds < 20


@pytest.mark.slow
@pytest.mark.forks
def test_a_signal_stops_spacys_worker_processes(pipeline_dir, write, tmp_path):
    # one shard with -n 2 goes through spaCy's n_process, whose workers outlived the driver
    text = write("a.txt", TEXT * 3000)
    out = tmp_path / "out"
    run = start(pipeline_dir, text, out, "-n", "2")
    wait_for(lambda: len(session_processes(run.pid)) >= 3, run)  # the driver, 2 workers
    time.sleep(1)
    err, _ = stop(run, signal.SIGTERM)
    assert check_stopped(run, err, signal.SIGTERM, out) == (0, 1)
