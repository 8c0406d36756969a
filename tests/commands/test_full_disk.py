"""Every command that writes files, on a full disk (a file-size limit on its process):
one line naming the output the user gave, and no partial file or made-up directory left."""

import pytest

TINY_RUN = ["--max-words", "64", "--batch-size", "32", "--validation-words", "8"]
TINY_RUN += ["--vocab-size", "6", "--threads", "1", "--quiet"]


@pytest.fixture
def inputs(tmp_path, corpus, conll):
    """The input of each writing command, under tmp_path/in."""
    folder = tmp_path / "in"
    folder.mkdir()
    (folder / "text.txt").write_text("the cat sees a dog .\na dog sees the cat .\n" * 20)
    (folder / "vectors.txt").write_text("2 3\nthe 0.1 0.2 0.3\ncat 0.4 0.5 0.6\n")
    (folder / "corpus.spacy").write_bytes(corpus.read_bytes())
    (folder / "train.txt").write_bytes(conll.read_bytes())
    corpus.unlink()
    conll.unlink()
    return folder


# argv (INPUTS and OUT stand for the paths) and the output the error line names
CASES = {
    "convert": (["convert", "INPUTS/train.txt", "OUT", "-c", "conll2000"], "OUT/train.spacy"),
    "split-dev": (["split-dev", "INPUTS/corpus.spacy", "OUT", "--fraction", "0.5"], None),
    "build-gazetteer": (["build-gazetteer", "INPUTS/corpus.spacy", "OUT/g.lst"], "OUT/g.lst"),
    "import-vectors": (["import-vectors", "INPUTS/vectors.txt", "OUT"], "OUT"),
    "pretrain-lm": (["pretrain-lm", "INPUTS/text.txt", "OUT", *TINY_RUN], "OUT.checkpoints/corpus"),
    "annotate": (["annotate", "PIPELINE", "INPUTS/text.txt", "-o", "OUT"], "OUT/annotate.json"),
}


@pytest.mark.parametrize("command", CASES)
def test_nothing_is_left_but_the_inputs(
    request, tmp_path, inputs, command, cli_with_file_size_limit, all_files
):
    argv, named = CASES[command]
    out = tmp_path / "out" / "deeper"
    paths = {"INPUTS": str(inputs), "OUT": str(out)}
    if command == "annotate":
        paths["PIPELINE"] = str(request.getfixturevalue("pipeline_dir"))

    def fill(arg):
        for key, value in paths.items():
            arg = arg.replace(key, value)
        return arg

    before = all_files(tmp_path)
    done = cli_with_file_size_limit(1, *map(fill, argv), cwd=inputs)
    assert done.returncode == 1 and "Traceback" not in done.stderr, done.stderr
    line = done.stderr.splitlines()[-1]
    if named is None:  # both outputs are written before either is renamed into place
        assert line in {f"✘ {out / n}: file too large" for n in ("train.spacy", "dev.spacy")}
    else:
        assert line == f"✘ {fill(named)}: file too large"
    assert all_files(tmp_path) == before


def test_a_checkpoint_that_cannot_be_written(tmp_path, inputs, cli_with_file_size_limit, all_files):
    out = tmp_path / "out"
    # the encoded corpus (a few kB) fits, the checkpoint (the model, ~300 kB) does not
    done = cli_with_file_size_limit(
        100_000, "pretrain-lm", inputs / "text.txt", out, *TINY_RUN, cwd=inputs
    )
    assert done.returncode == 1 and "Traceback" not in done.stderr, done.stderr
    checkpoint = tmp_path / "out.checkpoints" / "checkpoint.pt"
    assert done.stderr.splitlines()[-1] == f"✘ {checkpoint}: file too large"
    assert {p for p in all_files(tmp_path) if p.startswith("out")} == {
        "out.checkpoints",
        "out.checkpoints/corpus",
        *(f"out.checkpoints/corpus/{name}" for name in CORPUS_FILES),
    }


CORPUS_FILES = [
    "meta.json",
    "train.caps",
    "train.words",
    "type2row.npy",
    "valid.caps",
    "valid.words",
    "vocab.json",
]
