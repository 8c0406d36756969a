"""The malloc thresholds of the Hogwild workers."""

import subprocess
import sys

from spacy_senna.lm import allocator


def test_keep_freed_memory_sets_glibc_thresholds():
    # in a fresh process: the thresholds stay set for the rest of a process's life
    code = "from spacy_senna.lm.allocator import keep_freed_memory; print(keep_freed_memory())"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    expected = sys.platform.startswith("linux") and hasattr(allocator.ctypes.CDLL(None), "mallopt")
    assert result.stdout.strip() == str(expected)


def test_keep_freed_memory_is_a_no_op_without_glibc(monkeypatch):
    monkeypatch.setattr(allocator.sys, "platform", "darwin")
    assert allocator.keep_freed_memory() is False
