"""`python -m spacy_senna annotate`: outputs, resume, bad input, exit status, processes."""

import io
import json
import multiprocessing
import os
import shutil
import signal
import subprocess
import sys
import threading
import time

import pytest

from spacy_senna.annotate import AnnotateSettings, annotate

TEXT = "John Smith visited Paris today.\nMary saw the big house in Berlin.\n"


def outputs(directory):
    """{relative name: bytes} of every shard output in `directory`."""
    return {
        p.relative_to(directory).as_posix(): p.read_bytes()
        for p in sorted(directory.rglob("*"))
        if p.is_file() and p.name != "annotate.json"
    }


def test_text_jsonl_and_directory_inputs(run_cli, pipeline_dir, write, tmp_path, capsys):
    a = write("a.txt", TEXT)
    write("corpus/b.txt", "The big dog barked.\n")
    jsonl = write("docs.jsonl", '{"id": 1, "text": "Acme Corp hired Anna Lee."}\n')
    out = tmp_path / "out"
    assert run_cli(pipeline_dir, a, a.parent / "corpus", jsonl, "--output", out) == 0
    assert set(outputs(out)) == {
        "a.txt.00000.senna",
        "corpus/b.txt.00000.senna",
        "docs.jsonl.00000.senna",
    }
    first = outputs(out)["a.txt.00000.senna"].decode("utf8")
    assert first.split("\n\n")[0].split("\n")[0].split() == [
        "John",
        "NNP",
        "B-NP",
        "B-PER",
        "-",
        "B-A0",
    ]
    printed = capsys.readouterr()
    assert "Annotated 4 docs, 25 words" in printed.out and "words/s" in printed.out
    assert "1 worker(s) on CPU, batches of " in printed.out  # what the run ran with
    assert "[3/3]" in printed.err  # plain status lines when not on a terminal
    manifest = json.loads((out / "annotate.json").read_text())
    assert manifest["settings"]["format"] == "senna" and manifest["last_run"]["words"] == 25


@pytest.mark.parametrize("n_process", [1, 2])
def test_summary_says_device_and_batch_size(pipeline_dir, write, tmp_path, n_process):
    a = write("a.txt", TEXT)
    settings = AnnotateSettings(batch_size=7, n_process=n_process)
    summary = annotate(str(pipeline_dir), [str(a)], tmp_path / "out", settings)
    assert (summary.device, summary.batch_size) == ("CPU", 7)
    assert f"{n_process} worker(s) on CPU, batches of 7 docs" in summary.lines()[1]
    manifest = json.loads((tmp_path / "out" / "annotate.json").read_text())
    assert manifest["last_run"]["batch_size"] == 7 and manifest["last_run"]["device"] == "CPU"


def test_jsonl_metadata_reaches_jsonl_output(run_cli, pipeline_dir, write, tmp_path):
    jsonl = write("docs.jsonl", '{"id": 1, "text": "Dogs bark."}\n{"text": "", "src": "x"}\n')
    assert run_cli(pipeline_dir, jsonl, "-o", tmp_path / "out", "-f", "jsonl") == 0
    lines = (tmp_path / "out" / "docs.jsonl.00000.jsonl").read_text().splitlines()
    assert [json.loads(line)["meta"] for line in lines] == [{"id": 1}, {"src": "x"}]


def test_stdin(pipeline_dir, tmp_path):
    summary = annotate(str(pipeline_dir), ["-"], tmp_path / "out", stdin=io.BytesIO(TEXT.encode()))
    assert summary.docs == 2 and not summary.failures
    assert (tmp_path / "out" / "stdin.00000.senna").read_text().count("\n\n") == 2
    assert not (tmp_path / "out" / ".stdin").exists()


def test_rerun_skips_complete_shards_and_redoes_missing_ones(pipeline_dir, write, tmp_path):
    inputs = [write(f"{n}.txt", TEXT) for n in ("a", "b", "c")]
    out = tmp_path / "out"
    first = annotate(str(pipeline_dir), [str(p) for p in inputs], out)
    assert first.shards_done == 3
    before = outputs(out)
    (out / "b.txt.00000.senna").unlink()
    (out / "c.txt.00000.senna.partial-host-123").write_text("half a shard")
    mtime = (out / "a.txt.00000.senna").stat().st_mtime_ns
    second = annotate(str(pipeline_dir), [str(p) for p in inputs], out)
    assert (second.shards_done, second.shards_skipped, second.words) == (1, 2, 14)
    assert outputs(out) == before  # the redone shard is identical; the partial file is gone
    assert (out / "a.txt.00000.senna").stat().st_mtime_ns == mtime
    third = annotate(
        str(pipeline_dir), [str(p) for p in inputs], out, AnnotateSettings(overwrite=True)
    )
    assert (third.shards_done, third.shards_skipped) == (3, 0)


def test_rerun_with_other_settings_is_refused(run_cli, pipeline_dir, write, tmp_path, capsys):
    path = write("a.txt", TEXT)
    assert run_cli(pipeline_dir, path, "-o", tmp_path / "out") == 0
    assert run_cli(pipeline_dir, path, "-o", tmp_path / "out", "-f", "conll") == 1
    assert "format: 'senna' -> 'conll'" in capsys.readouterr().err
    assert run_cli(pipeline_dir, path, "-o", tmp_path / "out", "-f", "conll", "--overwrite") == 0
    assert set(outputs(tmp_path / "out")) == {"a.txt.00000.conll"}


def test_non_utf8_fails_its_shard_only(run_cli, pipeline_dir, write, tmp_path, capsys):
    good = write("good.txt", TEXT)
    bad = write("bad.txt", "Dogs bark.\nCaf".encode() + b"\xe9 au lait.\n")
    assert run_cli(pipeline_dir, bad, good, "-o", tmp_path / "out") == 1
    err = capsys.readouterr().err
    assert "bad.txt: not UTF-8 at byte offset 14 (byte e9)" in err
    assert "--encoding-errors replace" in err
    assert set(outputs(tmp_path / "out")) == {"good.txt.00000.senna"}
    code = run_cli(pipeline_dir, bad, good, "-o", tmp_path / "out", "--encoding-errors", "replace")
    assert code == 1  # a different setting than the first run: refused
    code = run_cli(pipeline_dir, bad, "-o", tmp_path / "out2", "--encoding-errors", "replace")
    assert code == 0
    assert "\ufffd" in (tmp_path / "out2" / "bad.txt.00000.senna").read_text()


def test_empty_files_give_empty_outputs(run_cli, pipeline_dir, write, tmp_path, capsys):
    empty, blank = write("empty.txt", ""), write("blank.txt", "\n  \n\n")
    assert run_cli(pipeline_dir, empty, blank, "-o", tmp_path / "out") == 0
    assert outputs(tmp_path / "out") == {"blank.txt.00000.senna": b"", "empty.txt.00000.senna": b""}
    assert "Annotated 0 docs, 0 words" in capsys.readouterr().out


def test_huge_line_without_newline_is_split_into_shards_and_docs(pipeline_dir, write, tmp_path):
    words = ["John", "Smith", "visited", "Paris", "today", "."] * 2000  # ~60 kB, one line
    path = write("oneline.txt", " ".join(words))
    settings = AnnotateSettings(shard_bytes=8192, max_doc_chars=1000, format="jsonl")
    summary = annotate(str(pipeline_dir), [str(path)], tmp_path / "out", settings)
    assert not summary.failures and summary.shards_done > 6
    texts = [
        json.loads(line)["text"]
        for name, data in outputs(tmp_path / "out").items()
        for line in data.decode("utf8").splitlines()
    ]
    assert max(len(t) for t in texts) <= 1000
    assert " ".join(texts).split() == words and summary.words == len(words)


def test_unreadable_file_is_reported_and_the_rest_annotated(
    run_cli, pipeline_dir, write, tmp_path, capsys
):
    good = write("corpus/good.txt", TEXT)
    (good.parent / "gone.txt").symlink_to(tmp_path / "no-such-file")
    assert run_cli(pipeline_dir, good.parent, "-o", tmp_path / "out") == 1
    captured = capsys.readouterr()
    assert "gone.txt" in captured.err and "gone.txt" in captured.out  # live and in the summary
    assert set(outputs(tmp_path / "out")) == {"corpus/good.txt.00000.senna"}


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads files whatever their permissions")
def test_file_without_read_permission(run_cli, pipeline_dir, write, tmp_path, capsys):
    locked, good = write("locked.txt", TEXT), write("good.txt", TEXT)
    locked.chmod(0)
    assert run_cli(pipeline_dir, locked, good, "-o", tmp_path / "out") == 1
    assert "locked.txt: Permission denied" in capsys.readouterr().err.replace("cannot read ", "")
    assert set(outputs(tmp_path / "out")) == {"good.txt.00000.senna"}


def test_not_a_pipeline_is_a_clear_error(run_cli, write, tmp_path, capsys):
    text = write("a.txt", TEXT)
    (tmp_path / "not-a-pipeline").mkdir()
    for pipeline, message in [
        (
            tmp_path / "not-a-pipeline",
            "is not a spaCy pipeline: expected a directory with a config",
        ),
        (text, "is not a spaCy pipeline"),
        ("no_such_pipeline_package", "Pipeline not found"),
    ]:
        assert run_cli("--pipeline", pipeline, text, "-o", tmp_path / "out") == 1
        assert message in capsys.readouterr().err
    # without --pipeline, a first argument that names no pipeline and no input says so
    assert run_cli("no_such_file.txt", text, "-o", tmp_path / "out") == 1
    assert "no_such_file.txt" in capsys.readouterr().err
    (tmp_path / "broken").mkdir()
    (tmp_path / "broken" / "config.cfg").write_text('[nlp]\nlang = "xx-nope"\n')
    assert run_cli(tmp_path / "broken", text, "-o", tmp_path / "out") == 1
    assert "Could not load pipeline" in capsys.readouterr().err


def test_a_damaged_pipeline_is_named_in_one_line_and_blocks_no_later_run(
    run_cli, fail_line, pipeline_dir, write, tmp_path, capsys
):
    damaged = tmp_path / "damaged"
    shutil.copytree(pipeline_dir, damaged)
    model = damaged / "senna_ner" / "model"
    model.write_bytes(model.read_bytes()[:1000])
    text = write("a.txt", TEXT)
    out = tmp_path / "out"
    out.mkdir()
    assert fail_line(capsys, "annotate", damaged, text, "-o", out) == (
        f"✘ {damaged}: senna_ner/model is damaged (truncated or corrupted: Unpack failed: "
        "incomplete input); reinstall or retrain the pipeline"
    )
    assert list(out.iterdir()) == []  # no settings recorded for a pipeline that never loaded
    assert run_cli(pipeline_dir, text, "-o", out) == 0
    assert set(outputs(out)) == {"a.txt.00000.senna"}


def test_a_first_argument_neither_pipeline_nor_input_says_so(run_cli, write, tmp_path, capsys):
    """A first argument meant as the pipeline, but none, is not taken for a missing input."""
    text = write("a.txt", TEXT)
    assert run_cli("en_senna_nonexistent", text, "-o", tmp_path / "out") == 1
    assert capsys.readouterr().err == (
        "✘ en_senna_nonexistent is neither an installed pipeline (spacy.load could not find "
        "it) nor an input file or folder: give a pipeline name or path first, or only inputs "
        "to annotate with en_senna\n"
    )
    # alone, it is the one input, and a missing one
    assert run_cli("en_senna_nonexistent", "-o", tmp_path / "out") == 1
    assert "Input not found: en_senna_nonexistent" in capsys.readouterr().err
    assert outputs(tmp_path / "out") == {}


def test_bad_options_are_clear_errors(run_cli, pipeline_dir, write, tmp_path, capsys):
    text = write("a.txt", TEXT)
    assert run_cli(pipeline_dir, text, "-o", tmp_path / "o", "--n-process", "0") == 1
    assert "--n-process must be at least 1" in capsys.readouterr().err
    assert run_cli(pipeline_dir, text, "-o", tmp_path / "o", "--shard-size", "0.000001") == 1
    assert "--shard-size" in capsys.readouterr().err
    assert run_cli(pipeline_dir, tmp_path / "missing.txt", "-o", tmp_path / "o") == 1
    assert "Input not found" in capsys.readouterr().err
    assert not (tmp_path / "o").exists()  # nothing written before the inputs are checked


def test_progress_bar_on_request(run_cli, pipeline_dir, write, tmp_path, capsys):
    path = write("a.txt", TEXT)
    assert run_cli(pipeline_dir, path, "-o", tmp_path / "out", "--progress", "bar") == 0
    err = capsys.readouterr().err
    assert "words" in err and "1/1 shards" in err and "[1/1]" not in err


@pytest.mark.slow
@pytest.mark.forks
@pytest.mark.parametrize("fmt", ["senna", "spacy"])
def test_two_processes_write_the_same_bytes_as_one(pipeline_dir, write, tmp_path, fmt):
    lines = TEXT * 40 + "Acme Corp hired Anna Lee and left London.\n" * 40
    inputs = [str(write(f"{n}.txt", lines)) for n in range(3)] + [str(write("e.txt", ""))]
    one = AnnotateSettings(format=fmt, batch_size=16, shard_bytes=1000)
    two = AnnotateSettings(format=fmt, batch_size=16, shard_bytes=1000, n_process=2)
    single = annotate(str(pipeline_dir), inputs, tmp_path / "one", one)
    double = annotate(str(pipeline_dir), inputs, tmp_path / "two", two)
    assert single.words == double.words == 3 * 40 * (14 + 9)
    assert outputs(tmp_path / "one") == outputs(tmp_path / "two")
    assert len(outputs(tmp_path / "one")) > 10


@pytest.mark.slow
@pytest.mark.forks
def test_worker_processes_that_cannot_load_the_pipeline_fail_with_its_error(
    pipeline_dir, write, tmp_path
):
    # a pool initializer that raised was restarted forever: the run hung
    broken = tmp_path / "broken"
    shutil.copytree(pipeline_dir, broken)
    (broken / "senna_tagger" / "model").write_bytes(b"not a model")
    lines = write("a.txt", TEXT * 40)
    args = [broken, lines, "-o", tmp_path / "out", "--n-process", "2", "--shard-size", "0.001"]
    result = subprocess.run(
        [sys.executable, "-m", "spacy_senna", "annotate", *map(str, args)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 1
    assert f"✘ {broken}: senna_tagger/model is damaged" in result.stderr
    assert outputs(tmp_path / "out") == {}


def run_and_kill_the_workers(pipeline, inputs, out, settings, before_kill=lambda: None):
    """The summary of an annotate run (in a thread) whose worker processes are all killed
    once its first shard is written (after `before_kill`); fails if the run then hangs."""
    runs = []
    run = threading.Thread(
        target=lambda: runs.append(annotate(str(pipeline), inputs, out, settings)),
        daemon=True,  # a hung run must fail the test, not hold up the suite
    )
    run.start()
    deadline = time.monotonic() + 120
    while not list(out.glob("*.senna")) and time.monotonic() < deadline:
        time.sleep(0.05)
    workers = multiprocessing.active_children()
    assert len(workers) == settings.n_process, "the run should be under way"
    before_kill()
    for worker in workers:
        os.kill(worker.pid, signal.SIGKILL)
    run.join(timeout=300)  # replacements import torch and spaCy: slow on a loaded machine
    assert not run.is_alive(), "the run did not finish after its workers were killed"
    (summary,) = runs
    return summary


@pytest.mark.slow
@pytest.mark.forks
def test_killed_worker_processes_lose_only_their_shards_and_are_replaced(
    pipeline_dir, write, tmp_path
):
    # the multiprocessing.Pool before waited forever for a killed worker's shard; then the
    # shards left once both workers were gone failed with "no worker process left"
    inputs = [str(write(f"{n}.txt", TEXT * 30)) for n in range(40)]
    settings = AnnotateSettings(batch_size=4, n_process=2)
    out = tmp_path / "out"
    summary = run_and_kill_the_workers(pipeline_dir, inputs, out, settings)
    # a killed worker held at most one shard (none if the signal came between two), and
    # may have written it just before the signal; the new workers annotated the rest
    assert 1 <= len(summary.failures) <= 2
    assert all("worker process died (killed by signal 9)" in f for _, f in summary.failures)
    written = len(list(out.glob("*.senna")))
    assert 40 - len(summary.failures) <= written <= 40
    again = annotate(str(pipeline_dir), inputs, out, settings)  # redoes the lost shards only
    assert not again.failures and again.shards_skipped == written
    assert len(list(out.glob("*.senna"))) == 40


@pytest.mark.slow
@pytest.mark.forks
def test_workers_that_cannot_be_replaced_fail_the_shards_left(pipeline_dir, write, tmp_path):
    # a replacement that cannot load the pipeline is not started again and again
    pipeline = tmp_path / "pipeline"
    shutil.copytree(pipeline_dir, pipeline)
    inputs = [str(write(f"{n}.txt", TEXT * 30)) for n in range(40)]
    out = tmp_path / "out"
    settings = AnnotateSettings(batch_size=4, n_process=2)

    def break_the_pipeline():
        (pipeline / "senna_tagger" / "model").write_bytes(b"not a model")

    summary = run_and_kill_the_workers(pipeline, inputs, out, settings, break_the_pipeline)
    written = len(list(out.glob("*.senna")))
    left = [error for _, error in summary.failures if "no worker process left" in error]
    killed = len(summary.failures) - len(left)
    assert 1 <= killed <= 2  # a killed worker held at most one shard (perhaps just written)
    assert 40 - killed <= written + len(left) <= 40
    assert all("a new one could not load" in error for error in left)


@pytest.mark.slow
@pytest.mark.forks
def test_one_shard_with_two_processes_goes_through_spacys_multiprocessing(
    pipeline_dir, write, tmp_path, monkeypatch
):
    import spacy_senna.annotate.backends.pool as pool

    def no_pool(*args, **kwargs):
        raise AssertionError("a single shard must not start the shard pool")

    monkeypatch.setattr(pool, "run_pool", no_pool)
    inputs = [str(write("a.txt", TEXT * 20))]
    one = annotate(str(pipeline_dir), inputs, tmp_path / "one", AnnotateSettings(batch_size=16))
    two = annotate(
        str(pipeline_dir), inputs, tmp_path / "two", AnnotateSettings(batch_size=16, n_process=2)
    )
    assert one.words == two.words > 0
    assert outputs(tmp_path / "one") == outputs(tmp_path / "two")


@pytest.mark.slow
def test_module_entry_point(pipeline_dir, write, tmp_path):
    path = write("a.txt", TEXT)
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "spacy_senna",
            "annotate",
            str(pipeline_dir),
            "-",
            "-o",
            str(tmp_path / "out"),
            "--format",
            "conll",
        ],
        input=path.read_bytes(),
        capture_output=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr.decode()
    assert (tmp_path / "out" / "stdin.00000.conll").read_text().startswith("John\tNNP\tB-NP")


def test_pretokenized_one_sentence_per_line_as_senna_usrtokens(
    run_cli, pipeline_dir, write, tmp_path
):
    path = write("s.txt", "The big dog barked. John Smith visited Paris today .\n")
    args = ["-o", tmp_path / "out", "--pretokenized", "--sentences", "doc"]
    assert run_cli(pipeline_dir, path, *args) == 0
    out = (tmp_path / "out" / "s.txt.00000.senna").read_text()
    assert out.count("\n\n") == 1  # the whole line is one sentence
    assert [line.split("\t")[0].strip() for line in out.splitlines()[:5]] == [
        "The",
        "big",
        "dog",
        "barked.",
        "John",
    ]
