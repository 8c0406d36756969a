"""annotate inputs: files and directories -> shards -> records, and bad input."""

import json

import pytest

from spacy_senna.annotate.records import InputError, read_records, split_long, text_docs
from spacy_senna.annotate.shards import Shard, file_cuts, list_inputs, plan_shards


def pieces(path, cuts):
    data = path.read_bytes()
    return [data[a:b] for a, b in zip(cuts, cuts[1:])]


def whole_file_shard(path, kind="text"):
    return Shard(str(path), str(path), kind, 0, path.stat().st_size, 0, path.name + ".00000")


def test_lines_are_never_split_when_a_newline_is_near(write):
    path = write("a.txt", "".join(f"line {i} has some words\n" for i in range(200)))
    cuts = file_cuts(path, 300)
    assert len(cuts) > 10 and cuts[0] == 0 and cuts[-1] == path.stat().st_size
    parts = pieces(path, cuts)
    assert b"".join(parts) == path.read_bytes()
    assert all(part.endswith(b"\n") for part in parts)


def test_a_file_without_newlines_is_cut_after_whitespace(write):
    words = [f"word{i}" for i in range(20_000)]
    path = write("long.txt", " ".join(words))  # ~170 kB, one line
    cuts = file_cuts(path, 4096)
    parts = pieces(path, cuts)
    assert len(parts) > 30 and b"".join(parts) == path.read_bytes()
    assert all(part.endswith(b" ") for part in parts[:-1])
    assert max(len(p) for p in parts) < 4096 + 20
    recovered = [w for part in parts for w in part.decode("utf8").split()]
    assert recovered == words


def test_text_without_whitespace_is_cut_between_utf8_characters(write):
    path = write("dense.txt", "é€😀" * 3000)  # 2-, 3- and 4-byte characters, no spaces
    parts = pieces(path, file_cuts(path, 101))
    assert len(parts) > 100
    assert "".join(p.decode("utf8") for p in parts) == "é€😀" * 3000


def test_jsonl_records_are_never_split(write):
    lines = [json.dumps({"text": "x " * n, "id": n}) for n in (10, 5000, 3)]
    path = write("docs.jsonl", "\n".join(lines) + "\n")
    parts = pieces(path, file_cuts(path, 64, whole_lines=True))
    assert len(parts) == 2 and all(p.endswith(b"\n") for p in parts)
    ids = [json.loads(line)["id"] for p in parts for line in p.splitlines()]
    assert ids == [10, 5000, 3]


def test_paragraph_shards_end_at_blank_lines(write):
    path = write("p.txt", "".join(f"first line {i}\nsecond line\n\n" for i in range(100)))
    parts = pieces(path, file_cuts(path, 200, b"\n\n"))
    assert len(parts) > 5 and all(p.endswith(b"\n\n") for p in parts)


def test_empty_file_is_one_empty_shard(write):
    path = write("empty.txt", "")
    plan = plan_shards(list_inputs([str(path)]), 1024)
    assert [(s.start, s.end) for s in plan.shards] == [(0, 0)]
    assert read_records(plan.shards[0]) == []


def test_directories_are_walked_and_named_after_their_files(tmp_path, write):
    write("corpus/b.txt", "b\n")
    write("corpus/sub/a.jsonl", '{"text": "a"}\n')
    write("corpus/.hidden", "x\n")
    (tmp_path / "inputs" / "corpus" / "out").mkdir()
    (tmp_path / "inputs" / "corpus" / "out" / "old.senna").write_text("x")
    files = list_inputs(
        [str(tmp_path / "inputs" / "corpus")], exclude=tmp_path / "inputs" / "corpus" / "out"
    )
    assert [(f.stem, f.kind) for f in files] == [
        ("corpus/b.txt", "text"),
        ("corpus/sub/a.jsonl", "jsonl"),
    ]


def test_two_inputs_with_one_output_name_are_refused(write):
    a, b = write("x/same.txt", "a\n"), write("y/same.txt", "b\n")
    with pytest.raises(ValueError, match="same.txt"):
        list_inputs([str(a), str(b)])


def test_missing_input_is_a_clear_error(tmp_path):
    with pytest.raises(FileNotFoundError, match="nope.txt"):
        list_inputs([str(tmp_path / "nope.txt")])


def test_unreadable_file_is_reported_and_the_others_planned(tmp_path, write):
    good = write("corpus/good.txt", "fine\n")
    (good.parent / "broken.txt").symlink_to(tmp_path / "missing-target")
    plan = plan_shards(list_inputs([str(good.parent)]), 1024)
    assert [s.name for s in plan.shards] == ["corpus/good.txt.00000"]
    assert len(plan.errors) == 1 and "broken.txt" in plan.errors[0][1]


def test_gzip_input_is_refused_with_a_hint(write):
    path = write("a.txt.gz", b"\x1f\x8b\x08\x00")
    plan = plan_shards(list_inputs([str(path)]), 1024)
    assert not plan.shards and "zcat" in plan.errors[0][1]


def test_lines_and_paragraphs():
    text = "First line.\r\n\n  Second\nthird  \n\n\n\nFourth.\n"
    assert text_docs(text, "line") == ["First line.", "Second", "third", "Fourth."]
    assert text_docs(text, "paragraph") == ["First line.", "Second third", "Fourth."]


def test_long_docs_are_split_after_whitespace():
    text = " ".join(["abcd"] * 100)
    parts = split_long(text, 42)
    assert all(len(p) <= 42 for p in parts) and " ".join(parts) == text
    assert split_long("x" * 100, 42) == ["x" * 42, "x" * 42, "x" * 16]


def test_non_utf8_names_file_and_byte_offset(write):
    path = write("latin1.txt", "ok line\n".encode() + "café\n".encode("latin-1"))
    shard = whole_file_shard(path)
    with pytest.raises(InputError, match=r"latin1.txt: not UTF-8 at byte offset 11 \(byte e9\)"):
        read_records(shard)
    replaced = read_records(shard, encoding_errors="replace")
    assert replaced == [("ok line", None), ("caf\ufffd", None)]


def test_offset_of_bad_byte_counts_from_the_file_start(write):
    path = write("big.txt", b"abc\n" * 100 + b"\xff\n")
    shards = plan_shards(list_inputs([str(path)]), 64).shards
    with pytest.raises(InputError, match="byte offset 400 "):
        read_records(shards[-1])


def test_byte_order_mark_is_dropped(write):
    path = write("bom.txt", b"\xef\xbb\xbfHello\n")
    assert read_records(whole_file_shard(path)) == [("Hello", None)]


def test_jsonl_keeps_other_keys_as_metadata(write):
    path = write("d.jsonl", '{"id": 7, "text": "Hi there", "tags": ["a"]}\n\n{"text": ""}\n')
    records = read_records(whole_file_shard(path, "jsonl"))
    assert records == [("Hi there", {"id": 7, "tags": ["a"]}), ("", {})]


@pytest.mark.parametrize(
    "line,message",
    [("{not json", "not valid JSON"), ('{"txt": "x"}', '"text" string'), ("[1]", '"text"')],
)
def test_bad_jsonl_names_the_line(write, line, message):
    path = write("bad.jsonl", '{"text": "fine"}\n' * 30 + line + "\n")
    shards = plan_shards(list_inputs([str(path)]), 100).shards
    assert len(shards) > 1
    with pytest.raises(InputError, match=f"bad.jsonl, line 31: .*{message}"):
        read_records(shards[-1])


def test_jsonl_text_longer_than_the_limit_is_an_error(write):
    path = write("long.jsonl", json.dumps({"text": "word " * 100}) + "\n")
    with pytest.raises(InputError, match="line 1: text has 500 characters"):
        read_records(whole_file_shard(path, "jsonl"), max_doc_chars=100)
