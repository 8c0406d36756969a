"""Resuming `annotate`: only shards made from the input bytes as they are now are skipped,
and the outputs are never read as inputs."""

from spacy_senna.annotate import AnnotateSettings, annotate

TEXT = "John Smith visited Paris today.\nMary saw the big house in Berlin.\n"
APPENDED = "Anna Lee hired Acme Corp in London.\n" * 20


def outputs(directory):
    """{relative name: bytes} of every shard output in `directory`."""
    return {
        p.relative_to(directory).as_posix(): p.read_bytes()
        for p in sorted(directory.rglob("*"))
        if p.is_file() and p.name != "annotate.json"
    }


def test_edited_and_appended_input_is_annotated_again(
    run_cli, pipeline_dir, write, tmp_path, capsys
):
    # "3 of 3 shards already complete": the edited line kept its old labels and the
    # appended lines were never annotated
    text = TEXT * 10
    path = write("a.txt", text)
    out = tmp_path / "out"
    settings = AnnotateSettings(shard_bytes=250)
    first = annotate(str(pipeline_dir), [str(path)], out, settings)
    assert first.shards_done == 3
    edited = text.index("Paris", 300)  # in the second shard; same length: same cuts
    path.write_text(text[:edited] + "Tokyo" + text[edited + 5 :] + APPENDED)
    capsys.readouterr()
    assert run_cli(pipeline_dir, path, "-o", out, "--shard-size", str(250 / 2**20)) == 0
    err = capsys.readouterr().err
    assert "ℹ 1 of " in err and "shards already complete" in err
    assert "ℹ 2 shard(s) redone: their input changed since they were annotated" in err
    fresh = annotate(str(pipeline_dir), [str(path)], tmp_path / "fresh", settings)
    assert fresh.shards_done > 3
    assert outputs(out) == outputs(tmp_path / "fresh")
    again = annotate(str(pipeline_dir), [str(path)], out, settings)
    assert (again.shards_done, again.shards_changed) == (0, 0)


def test_an_output_directory_that_holds_the_input_outputs_is_refused(
    run_cli, pipeline_dir, write, tmp_path, capsys
):
    # run twice, `annotate corpus --output corpus` annotated its own outputs
    # (corpus/corpus/a.txt.00000.senna.00000.senna)
    corpus = write("corpus/a.txt", TEXT).parent
    for output in (corpus, corpus.parent):
        assert run_cli(pipeline_dir, corpus, "-o", output) == 1
        err = capsys.readouterr().err
        assert f"✘ {corpus}: --output {output} would write the outputs inside this input" in err
    assert sorted(p.name for p in corpus.parent.rglob("*")) == ["a.txt", "corpus"]
    inside = corpus / "annotated"  # a folder inside the input is skipped
    for _ in range(2):
        assert run_cli(pipeline_dir, corpus, "-o", inside) == 0
    assert set(outputs(inside)) == {"corpus/a.txt.00000.senna"}
