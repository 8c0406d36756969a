"""`python -m spacy_senna convert`: output names, the written DocBins, bad arguments, and
outputs replaced only by complete files."""

import pytest
from spacy.tokens import DocBin
from spacy.vocab import Vocab

from spacy_senna.cli import main
from spacy_senna.commands.convert import output_name


@pytest.mark.parametrize(
    "name,expected",
    [
        ("train.tsv.gz", "train.spacy"),
        ("eng.testb.gz", "eng.testb.spacy"),
        ("en_ewt-ud-dev.conllu.gz", "en_ewt-ud-dev.spacy"),
        ("test.txt", "test.spacy"),
        ("eng.train", "eng.train.spacy"),
    ],
)
def test_output_name(tmp_path, name, expected):
    assert output_name(tmp_path / name) == expected


def test_convert_cli(tmp_path, capsys, write_input, conll2003_text):
    path = write_input(tmp_path / "eng.testb.gz", conll2003_text, gz=True)
    out_dir = tmp_path / "out" / "nested"
    main(["convert", str(path), str(out_dir), "--converter", "conll2003"])
    out_path = out_dir / "eng.testb.spacy"
    assert capsys.readouterr().out.strip() == (f"✔ Generated output file (2 documents): {out_path}")
    docs = list(DocBin().from_disk(out_path).get_docs(Vocab()))
    assert [d.text for d in docs] == ["Ann Lee Bob saw New York", "Hi"]
    assert [(e.label_, e.start, e.end) for e in docs[0].ents] == [
        ("PER", 0, 2),
        ("PER", 2, 3),
        ("LOC", 4, 6),
    ]
    assert [s.label_ for s in docs[0].spans["chunks"]] == ["NP", "VP", "NP"]
    assert [t.tag_ for t in docs[0]][:2] == ["NNP", "NNP"]


def test_convert_cli_n_sents(tmp_path, capsys, write_input, conll2000_text):
    path = write_input(tmp_path / "test.txt", conll2000_text + "\n" + conll2000_text)
    main(["convert", str(path), str(tmp_path), "-c", "conll2000", "--n-sents", "3"])
    assert "(2 documents)" in capsys.readouterr().out
    docs = list(DocBin().from_disk(tmp_path / "test.spacy").get_docs(Vocab()))
    assert [len(list(d.sents)) for d in docs] == [3, 1]
    assert docs[0].text == "The cat sat on mats . Go The cat sat on mats ."
    chunks = [(s.label_, s.start, s.end) for s in docs[0].spans["chunks"]]
    assert chunks[3:6] == [("NP", 4, 5), ("VP", 6, 7), ("NP", 7, 9)]


def test_convert_cli_documents(tmp_path, capsys, write_input, conll2003_text):
    text = conll2003_text.replace("York NNP I-NP I-LOC\n", "York NNP I-NP I-LOC\n\nBye UH O O\n")
    path = write_input(tmp_path / "eng.testa", text)
    main(["convert", str(path), str(tmp_path), "-c", "conll2003", "--documents"])
    assert "(2 documents)" in capsys.readouterr().out
    docs = list(DocBin().from_disk(tmp_path / "eng.testa.spacy").get_docs(Vocab()))
    assert [[s.text for s in d.sents] for d in docs] == [
        ["Ann Lee Bob saw New York", "Bye"],
        ["Hi"],
    ]
    assert [(e.label_, e.start, e.end) for e in docs[0].ents][-1] == ("LOC", 4, 6)
    assert [s.label_ for s in docs[0].spans["chunks"]] == ["NP", "VP", "NP"]


@pytest.mark.parametrize(
    "args,message",
    [
        (["--converter", "wsj-pos", "--documents"], "this format marks no documents"),
        (["--converter", "conll2003", "--documents", "-n", "2"], "either --documents or"),
        (["--converter", "nope"], "Unknown converter 'nope'; available: wsj-pos, conllu"),
        (["--converter", "wsj-pos", "--n-sents", "0"], "--n-sents must be at least 1"),
    ],
)
def test_convert_cli_errors(tmp_path, capsys, write_input, wsj_pos_text, args, message):
    path = write_input(tmp_path / "train.tsv", wsj_pos_text)
    with pytest.raises(SystemExit) as exc:
        main(["convert", str(path), str(tmp_path / "out"), *args])
    assert exc.value.code == 1
    assert message in capsys.readouterr().err
    assert not (tmp_path / "out" / "train.spacy").exists()


def test_convert_cli_missing_input(tmp_path, capsys):
    with pytest.raises(SystemExit):
        main(["convert", str(tmp_path / "nope.tsv"), str(tmp_path), "-c", "wsj-pos"])
    assert "not found" in capsys.readouterr().err


def test_convert_into_a_file(capsys, conll, afile, fail_line):
    line = fail_line(capsys, "convert", conll, afile, "-c", "conll2000")
    assert line == f"✘ {afile}: exists and is not a directory"


def test_convert_under_a_file(capsys, conll, afile, fail_line):
    line = fail_line(capsys, "convert", conll, afile / "out", "-c", "conll2000")
    assert line == f"✘ {afile / 'out'}: cannot create it: {afile} is not a directory"


def test_convert_into_an_unwritable_directory(capsys, tmp_path, conll, fail_line, unwritable):
    locked = unwritable(tmp_path / "locked")
    try:
        line = fail_line(capsys, "convert", conll, locked, "-c", "conll2000")
    finally:
        locked.chmod(0o700)
    assert line == f"✘ {locked / 'train.spacy'}: permission denied"
    assert list(locked.iterdir()) == []


def test_convert_onto_a_directory(capsys, tmp_path, conll, fail_line):
    (tmp_path / "out" / "train.spacy").mkdir(parents=True)
    line = fail_line(capsys, "convert", conll, tmp_path / "out", "-c", "conll2000")
    assert line == f"✘ {tmp_path / 'out' / 'train.spacy'}: is a directory, expected a file"


def test_convert_failing_half_way_keeps_the_old_output(
    capsys, monkeypatch, tmp_path, conll, fail_line, disk_full_after_half
):
    out = tmp_path / "out"
    main(["convert", str(conll), str(out), "-c", "conll2000", "-n", "3"])
    old = (out / "train.spacy").read_bytes()
    disk_full_after_half(monkeypatch, DocBin, "to_disk")
    line = fail_line(capsys, "convert", conll, out, "-c", "conll2000")
    assert line == f"✘ {out / 'train.spacy'}: no space left on device"
    assert sorted(p.name for p in out.iterdir()) == ["train.spacy"]
    assert (out / "train.spacy").read_bytes() == old
    assert len(list(DocBin().from_disk(out / "train.spacy").get_docs(Vocab()))) == 1


@pytest.mark.parametrize(
    "content,problem",
    [
        (b"The DT B-NP\n\xff\xfe NN I-NP\n", ":2: expected UTF-8 text"),
        (b"The DT B-NP\ncat NN\n", ":2: expected 3 space-separated columns"),
        (b"\x00\x01\x02binary", ":1: expected a text file, found binary data"),
    ],
)
def test_convert_garbled_input(capsys, tmp_path, content, problem, fail_line):
    path = tmp_path / "bad.txt"
    path.write_bytes(content)
    line = fail_line(capsys, "convert", path, tmp_path / "out", "-c", "conll2000")
    assert line.startswith(f"✘ {path}{problem}")
    assert not (tmp_path / "out" / "bad.spacy").exists()


def test_convert_missing_or_directory_input(capsys, tmp_path, fail_line):
    missing = tmp_path / "missing.txt"
    assert fail_line(capsys, "convert", missing, tmp_path, "-c", "conll2000") == (
        f"✘ {missing}: file not found"
    )
    assert fail_line(capsys, "convert", tmp_path, tmp_path, "-c", "conll2000") == (
        f"✘ {tmp_path}: is a directory, expected a file"
    )
