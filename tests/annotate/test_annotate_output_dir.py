"""The annotate output directory: one run at a time, a full disk, empty or unwritable places.

Whatever goes wrong, the user reads one line naming the file or directory they gave, and
the output directory holds complete files only.
"""

import errno
import json
import os
import subprocess
import sys

import pytest

from spacy_senna.annotate import lock

TEXT = "John Smith visited Paris today.\nMary saw the big house in Berlin.\n"

# a stand-in for the first of two runs: it holds the output directory (as annotate does)
# with a shard in progress, says so on stdout, and lets go when its stdin closes
_HOLDER = """
import sys
from pathlib import Path
from spacy_senna.annotate.lock import output_lock
out = Path(sys.argv[1])
with output_lock(out):
    partial = out / "wiki.txt.00003.senna.partial-elsewhere-1"
    partial.write_text("half a shard")
    print("holding", flush=True)
    sys.stdin.read()
    partial.rename(out / "wiki.txt.00003.senna")
print("done", flush=True)
"""


def start_holder(out, tmp_path):
    """A process holding `out`, once it has said so."""
    holder = subprocess.Popen(
        [sys.executable, "-c", _HOLDER, str(out)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        cwd=tmp_path,
    )
    assert holder.stdout.readline() == "holding\n"
    return holder


def test_a_second_run_into_the_same_directory_is_refused(
    run_cli, pipeline_dir, write, tmp_path, capsys
):
    out = tmp_path / "out"
    out.mkdir()
    text = write("a.txt", TEXT)
    holder = start_holder(out, tmp_path)
    try:
        assert run_cli(pipeline_dir, text, "-o", out) == 1
        err = capsys.readouterr().err.strip()
        assert err == (
            f"✘ {out}: another annotate run (process {holder.pid} on {os.uname().nodename}) is "
            "writing into it; wait for it to finish, or choose another --output directory"
        )
        assert (out / "wiki.txt.00003.senna.partial-elsewhere-1").exists()  # left alone
    finally:
        out_text, _ = holder.communicate("")
    assert holder.returncode == 0 and out_text == "done\n"  # the first run finished its shard
    assert sorted(p.name for p in out.iterdir()) == ["wiki.txt.00003.senna"]
    assert run_cli(pipeline_dir, text, "-o", out) == 0  # the directory is free again
    assert sorted(p.name for p in out.iterdir()) == [
        "a.txt.00000.senna",
        "annotate.json",
        "wiki.txt.00003.senna",
    ]


def test_the_lock_of_a_killed_run_is_taken_over(run_cli, pipeline_dir, write, tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    holder = start_holder(out, tmp_path)
    holder.kill()
    holder.wait()
    holder.stdin.close()
    holder.stdout.close()
    assert (out / lock.LOCK).read_text() == f"{os.uname().nodename} {holder.pid}\n"
    assert run_cli(pipeline_dir, write("a.txt", TEXT), "-o", out) == 0
    assert sorted(p.name for p in out.iterdir()) == ["a.txt.00000.senna", "annotate.json"]


def test_without_file_locks_the_process_named_in_the_lock_decides(
    run_cli, pipeline_dir, write, tmp_path, monkeypatch, capsys
):
    def no_locks(fd, operation):
        raise OSError(errno.ENOLCK, os.strerror(errno.ENOLCK))

    monkeypatch.setattr(lock.fcntl, "flock", no_locks)
    out, text = tmp_path / "out", write("a.txt", TEXT)
    out.mkdir()
    finished = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"], text=True, capture_output=True
    )
    host = os.uname().nodename
    (out / lock.LOCK).write_text(f"{host} {finished.stdout.strip()}\n")
    assert run_cli(pipeline_dir, text, "-o", out) == 0  # its process is gone: stale
    assert not (out / lock.LOCK).exists()
    (out / lock.LOCK).write_text(f"{host} {os.getppid()}\n")  # alive: refused
    assert run_cli(pipeline_dir, text, "-o", out) == 1
    assert f"process {os.getppid()} on {host}" in capsys.readouterr().err
    (out / lock.LOCK).write_text(f"another-host {os.getppid()}\n")  # elsewhere: refused
    assert run_cli(pipeline_dir, text, "-o", out) == 1
    assert "on another-host" in capsys.readouterr().err


@pytest.mark.parametrize("n_process", [1, pytest.param(2, marks=pytest.mark.slow)])
def test_a_full_disk_names_the_shard_and_leaves_no_partial_file(
    pipeline_dir, write, tmp_path, cli_with_file_size_limit, n_process
):
    inputs = [write(f"{n}.txt", TEXT * 100) for n in ("a", "b")]
    out = tmp_path / "out"
    args = ["annotate", pipeline_dir, *inputs, "-o", out, "-n", n_process]
    done = cli_with_file_size_limit(4096, *args, cwd=tmp_path)  # a shard is ~100 kB
    assert done.returncode == 1, done.stderr
    assert "Traceback" not in done.stderr
    if n_process == 1:
        assert done.stderr.splitlines()[-1] == f"✘ {out / 'a.txt.00000.senna'}: file too large"
    else:
        for name in ("a.txt", "b.txt"):
            assert f"{out / name}.00000.senna: file too large" in done.stdout
    assert sorted(p.name for p in out.iterdir()) == ["annotate.json"]
    json.loads((out / "annotate.json").read_text())  # complete


def test_an_input_directory_without_files_is_an_error(
    run_cli, pipeline_dir, write, tmp_path, capsys
):
    empty = tmp_path / "inputs" / "empty"
    (empty / "sub").mkdir(parents=True)
    (empty / ".hidden").write_text(TEXT)
    assert run_cli(pipeline_dir, empty, write("a.txt", TEXT), "-o", tmp_path / "out") == 1
    assert capsys.readouterr().err.strip() == (
        f"✘ {empty}: no files to annotate in this directory (hidden files and the --output "
        "directory are skipped)"
    )
    assert not (tmp_path / "out").exists()


def test_an_unwritable_output_directory_is_named(
    run_cli, pipeline_dir, write, tmp_path, unwritable, capsys
):
    out = unwritable(tmp_path / "out")
    try:
        assert run_cli(pipeline_dir, write("a.txt", TEXT), "-o", out) == 1
        assert run_cli(pipeline_dir, write("b.txt", TEXT), "-o", out / "sub") == 1
    finally:
        out.chmod(0o700)
    assert capsys.readouterr().err.splitlines() == [
        f"✘ {out}: permission denied",
        f"✘ {out / 'sub'}: permission denied",
    ]
    assert list(out.iterdir()) == []


def test_a_refused_output_directory_is_named_not_the_lock_file(
    run_cli, pipeline_dir, write, tmp_path, monkeypatch, capsys
):
    # for root, who may write anywhere: the directory refuses the first file made in it
    real_open = os.open

    def refuse(path, *args, **kwargs):
        if os.fspath(path).startswith(str(tmp_path / "out")):
            raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), path)
        return real_open(path, *args, **kwargs)

    monkeypatch.setattr(lock.os, "open", refuse)
    assert run_cli(pipeline_dir, write("a.txt", TEXT), "-o", tmp_path / "out") == 1
    assert capsys.readouterr().err.strip() == f"✘ {tmp_path / 'out'}: permission denied"
