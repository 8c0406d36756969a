"""The malloc thresholds of the Hogwild workers, annotate and en_senna."""

import subprocess
import sys

import spacy

from spacy_senna import allocator
from spacy_senna.annotate import worker
from spacy_senna.annotate.settings import AnnotateSettings
from spacy_senna.annotate.worker import load_for_annotation
from spacy_senna.bundled import bundled_path


def test_keep_freed_memory_sets_glibc_thresholds():
    # in a fresh process: the thresholds stay set for the rest of a process's life
    code = "from spacy_senna.runtime.allocator import keep_freed_memory; print(keep_freed_memory())"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    expected = sys.platform.startswith("linux") and hasattr(allocator.ctypes.CDLL(None), "mallopt")
    assert result.stdout.strip() == str(expected)


def test_keep_freed_memory_is_a_no_op_without_glibc(monkeypatch):
    monkeypatch.setattr(allocator.sys, "platform", "darwin")
    assert allocator.keep_freed_memory() is False


def _count_calls(monkeypatch, module):
    calls = []
    monkeypatch.setattr(module, "keep_freed_memory", lambda: calls.append(1) or True)
    return calls


def test_a_pipeline_naming_the_callback_keeps_freed_memory_when_loaded(monkeypatch, tmp_path):
    calls = _count_calls(monkeypatch, allocator)
    callback = {"@callbacks": "spacy-senna.keep_freed_memory.v1"}
    spacy.blank("en", config={"nlp": {"after_pipeline_creation": callback}}).to_disk(tmp_path)
    assert len(calls) == 1
    spacy.load(tmp_path)
    assert len(calls) == 2
    # a user turns it off for their process
    spacy.load(tmp_path, config={"nlp": {"after_pipeline_creation": None}})
    assert len(calls) == 2


def test_en_senna_names_the_callback():
    config = spacy.util.load_config(bundled_path() / "config.cfg")
    assert config["nlp"]["after_pipeline_creation"] == {
        "@callbacks": "spacy-senna.keep_freed_memory.v1"
    }


def test_annotate_keeps_freed_memory_for_any_pipeline(monkeypatch, pipeline_dir):
    calls = _count_calls(monkeypatch, worker)
    load_for_annotation(str(pipeline_dir), AnnotateSettings(), gpu_id=-1)
    assert calls == [1]
