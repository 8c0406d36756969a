"""Atomic outputs and the file checks behind the CLI's one-line errors."""

import errno
import os

import pytest

from spacy_senna.io.files import atomic_output, check_directory, make_directory, require_file


def _leftovers(directory):
    return sorted(p.name for p in directory.iterdir())


def test_atomic_output_writes_the_file_only_when_complete(tmp_path):
    target = tmp_path / "out" / "data.txt"
    with atomic_output(target) as tmp:
        assert tmp.parent == target.parent and tmp != target
        tmp.write_text("new", encoding="utf8")
        assert not target.exists()
    assert target.read_text(encoding="utf8") == "new"
    assert _leftovers(target.parent) == ["data.txt"]


def test_failed_write_keeps_the_old_output_and_no_temp_file(tmp_path):
    target = tmp_path / "data.txt"
    target.write_text("old", encoding="utf8")
    with pytest.raises(OSError) as exc:
        with atomic_output(target) as tmp:
            with tmp.open("w", encoding="utf8") as stream:
                stream.write("half of the ne")
                raise OSError(errno.ENOSPC, "No space left on device")
    assert exc.value.errno == errno.ENOSPC
    assert exc.value.filename == str(target)  # the user's path, not the temporary one
    assert target.read_text(encoding="utf8") == "old"
    assert _leftovers(tmp_path) == ["data.txt"]


def test_interrupted_write_leaves_nothing(tmp_path):
    target = tmp_path / "data.txt"
    with pytest.raises(KeyboardInterrupt):
        with atomic_output(target) as tmp:
            tmp.write_text("partial", encoding="utf8")
            raise KeyboardInterrupt
    assert _leftovers(tmp_path) == []


def test_failed_write_removes_the_directories_made_for_it(tmp_path):
    (tmp_path / "kept").mkdir()
    for target in (tmp_path / "kept" / "a" / "b" / "data.txt", tmp_path / "new" / "dir"):
        with pytest.raises(OSError, match="No space left"):
            with atomic_output(target, directory=target.name == "dir"):
                raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
    assert _leftovers(tmp_path) == ["kept"] and _leftovers(tmp_path / "kept") == []


def test_check_directory_creates_nothing(tmp_path):
    (tmp_path / "afile").write_text("", encoding="utf8")
    assert check_directory(tmp_path / "a" / "b") == tmp_path / "a" / "b"
    with pytest.raises(NotADirectoryError) as exc:
        check_directory(tmp_path / "afile" / "sub")
    assert exc.value.strerror == f"cannot create it: {tmp_path / 'afile'} is not a directory"
    assert _leftovers(tmp_path) == ["afile"]


def test_atomic_output_has_the_permissions_of_a_normal_file(tmp_path):
    plain = tmp_path / "plain.txt"
    plain.write_text("x", encoding="utf8")
    with atomic_output(tmp_path / "atomic.txt") as tmp:
        tmp.write_text("x", encoding="utf8")
    assert (tmp_path / "atomic.txt").stat().st_mode == plain.stat().st_mode


def test_atomic_directory_replaces_an_old_directory(tmp_path):
    target = tmp_path / "vectors"
    target.mkdir()
    (target / "stale.bin").write_bytes(b"old")
    with pytest.raises(RuntimeError):
        with atomic_output(target, directory=True) as tmp:
            tmp.mkdir()
            (tmp / "new.bin").write_bytes(b"half")
            raise RuntimeError("serializer failed")
    assert _leftovers(target) == ["stale.bin"]
    assert _leftovers(tmp_path) == ["vectors"]
    with atomic_output(target, directory=True) as tmp:
        tmp.mkdir()
        (tmp / "new.bin").write_bytes(b"new")
    assert _leftovers(target) == ["new.bin"]
    assert _leftovers(tmp_path) == ["vectors"]


def test_atomic_output_refuses_the_wrong_kind_of_existing_path(tmp_path):
    (tmp_path / "adir").mkdir()
    (tmp_path / "afile").write_text("keep", encoding="utf8")
    with pytest.raises(IsADirectoryError, match="is a directory, expected a file"):
        with atomic_output(tmp_path / "adir"):
            pytest.fail("the block must not run")
    with pytest.raises(NotADirectoryError, match="exists and is not a directory"):
        with atomic_output(tmp_path / "afile", directory=True):
            pytest.fail("the block must not run")
    assert (tmp_path / "afile").read_text(encoding="utf8") == "keep"


def test_atomic_output_needs_something_written(tmp_path):
    with pytest.raises(FileNotFoundError, match="nothing was written"):
        with atomic_output(tmp_path / "data.txt"):
            pass


def test_make_directory_names_the_file_in_the_way(tmp_path):
    (tmp_path / "afile").write_text("", encoding="utf8")
    assert make_directory(tmp_path / "a" / "b").is_dir()
    with pytest.raises(NotADirectoryError) as exc:
        make_directory(tmp_path / "afile")
    assert exc.value.filename == str(tmp_path / "afile")
    assert exc.value.strerror == "exists and is not a directory"
    with pytest.raises(NotADirectoryError) as exc:
        make_directory(tmp_path / "afile" / "sub" / "dir")
    assert exc.value.filename == str(tmp_path / "afile" / "sub" / "dir")
    assert exc.value.strerror == f"cannot create it: {tmp_path / 'afile'} is not a directory"


def test_require_file(tmp_path):
    (tmp_path / "f.txt").write_text("", encoding="utf8")
    assert require_file(str(tmp_path / "f.txt")) == tmp_path / "f.txt"
    with pytest.raises(FileNotFoundError, match="file not found"):
        require_file(tmp_path / "missing.txt")
    with pytest.raises(IsADirectoryError, match="is a directory, expected a file"):
        require_file(tmp_path)


def test_unwritable_directory(tmp_path):
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o500)
    try:
        if os.access(locked, os.W_OK):
            pytest.skip("permissions are not enforced for this user (root)")
        with pytest.raises(PermissionError) as exc:
            with atomic_output(locked / "data.txt") as tmp:
                tmp.write_text("x", encoding="utf8")
        assert exc.value.filename == str(locked / "data.txt")
    finally:
        locked.chmod(0o700)


def test_atomic_output_under_a_file_names_the_output(tmp_path):
    (tmp_path / "afile").write_text("keep", encoding="utf8")
    target = tmp_path / "afile" / "sub" / "data.txt"
    with pytest.raises(NotADirectoryError) as exc:
        with atomic_output(target):
            pytest.fail("the block must not run")
    assert exc.value.filename == str(target)
    assert exc.value.strerror == f"cannot create it: {tmp_path / 'afile'} is not a directory"
