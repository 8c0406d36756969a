"""The `spacy-senna.release_memory.v1` training callback: found by name in a config,
trims before the steps it is asked to, and rejects a bad interval."""

import platform

import pytest
from spacy.lang.en import English
from spacy.util import registry

import spacy_senna.runtime.release_memory as release_memory


def test_callback_resolves_from_a_config_and_trims_every_n_steps(monkeypatch):
    calls = []
    monkeypatch.setattr(release_memory, "release_freed_memory", lambda: calls.append(1))
    config = {"cb": {"@callbacks": "spacy-senna.release_memory.v1", "every": 3}}
    before_update = registry.resolve(config)["cb"]
    nlp = English()
    for step in range(7):
        before_update(nlp, {"step": step, "epoch": 0})
    assert len(calls) == 3  # steps 0, 3, 6


@pytest.mark.skipif(platform.libc_ver()[0] != "glibc", reason="glibc only")
def test_trim_runs_with_glibc():
    assert release_memory.release_freed_memory() is True


def test_bad_interval_is_named():
    with pytest.raises(ValueError, match="every >= 1"):
        release_memory.make_release_memory(every=0)
