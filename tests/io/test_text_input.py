"""The one text opener: gzip by magic bytes, UTF-8 errors naming file, line and byte."""

import gzip

import pytest

from spacy_senna.io.text_input import is_gzipped, open_text


def _read(path, **options):
    with open_text(path, **options) as text:
        return list(text)


def test_gzip_is_recognised_by_its_bytes_not_its_name(tmp_path):
    zipped = tmp_path / "no_suffix"
    zipped.write_bytes(gzip.compress("é\nb\n".encode()))
    plain = tmp_path / "plain.gz"
    plain.write_text("é\nb\n", encoding="utf8")
    assert is_gzipped(zipped) and not is_gzipped(plain)
    assert _read(zipped) == _read(plain) == ["é\n", "b\n"]


def test_line_ends(tmp_path):
    path = tmp_path / "t.txt"
    path.write_bytes(b"a\r\nb\rc\n")
    assert _read(path) == ["a\n", "b\n", "c\n"]
    assert _read(path, newline="\n") == ["a\r\n", "b\rc\n"]


@pytest.mark.parametrize("gz", [False, True])
def test_undecodable_bytes_name_the_file_line_and_byte(tmp_path, gz):
    # the bad line lies far beyond the first read buffer: the line count must still be exact
    data = b"ok \xc3\xa9\n" * 5000 + b"caf\xe9 NN\n" + b"never read\n"
    path = tmp_path / ("latin1.txt.gz" if gz else "latin1.txt")
    path.write_bytes(gzip.compress(data) if gz else data)
    lines = []
    with pytest.raises(ValueError) as exc, open_text(path) as text:
        for line in text:
            lines.append(line)
    reason = "invalid continuation byte at byte 3"
    assert str(exc.value) == f"{path}:5001: expected UTF-8 text ({reason})"
    assert len(lines) == 5000 and lines[-1] == "ok é\n"  # every line before it was read
    with open_text(path, errors="replace") as text:
        assert list(text)[5000] == "caf\ufffd NN\n"


def test_byte_offset_counts_earlier_pieces_of_the_line(tmp_path):
    path = tmp_path / "t.txt"
    path.write_bytes("éé".encode() + b"\xff\n")
    with open_text(path) as text:
        assert text.readline(1) == "é"
        with pytest.raises(ValueError, match=r"t\.txt:1: .*invalid start byte at byte 4"):
            text.readline()


def test_nul_bytes_are_binary_data(tmp_path):
    path = tmp_path / "model.bin"
    path.write_bytes(b"abc\n\x00\x01\x02\n")
    with pytest.raises(ValueError, match=r"model\.bin:2: expected a text file, found binary"):
        _read(path)
    assert _read(path, errors="replace") == ["abc\n", "\x00\x01\x02\n"]


def test_unreadable_gzip_and_missing_file(tmp_path):
    truncated = tmp_path / "truncated.gz"
    truncated.write_bytes(gzip.compress(b"some words\n" * 500)[:40])
    with pytest.raises(ValueError, match=r"truncated\.gz: cannot read gzip data"):
        _read(truncated)
    corrupt = tmp_path / "corrupt.gz"
    corrupt.write_bytes(b"\x1f\x8b not really gzip")
    with pytest.raises(ValueError, match=r"corrupt\.gz: cannot read gzip data"):
        with open_text(corrupt) as text:
            text.peek(100)
    with pytest.raises(FileNotFoundError):
        _read(tmp_path / "missing.txt")


def test_peek_does_not_consume(tmp_path):
    path = tmp_path / "t.gz"
    path.write_bytes(gzip.compress(b"first line\nsecond\n"))
    with open_text(path) as text:
        assert text.peek(5) == b"first"
        assert list(text) == ["first line\n", "second\n"]
