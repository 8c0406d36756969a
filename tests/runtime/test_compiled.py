"""Numba's 512-bit vectors on a CPU with AMX: set only when nothing else chose Numba's
CPU features, and never where the user opted out."""

import llvmlite.binding
import pytest
from numba.core import config

from spacy_senna.runtime import compiled


class Features(dict):
    """llvmlite's FeatureMap as `prefer_wide_vectors` reads it."""

    def flatten(self) -> str:
        return ",".join(("+" if on else "-") + name for name, on in self.items())


@pytest.fixture
def unset(monkeypatch):
    monkeypatch.setattr(config, "CPU_NAME", None)
    monkeypatch.setattr(config, "CPU_FEATURES", None)
    monkeypatch.delenv(compiled.OPT_OUT, raising=False)


def host(monkeypatch, **features):
    monkeypatch.setattr(llvmlite.binding, "get_host_cpu_features", lambda: Features(features))


def test_a_cpu_with_amx_gets_512_bit_vectors(unset, monkeypatch):
    host(monkeypatch, **{"avx512f": True, "amx-tile": True, "sse2": True})
    assert compiled.prefer_wide_vectors()
    assert config.CPU_FEATURES == "+avx512f,+amx-tile,+sse2,-prefer-256-bit"


@pytest.mark.parametrize(
    "features", [{"avx512f": True, "amx-tile": False}, {"avx2": True}, {"neon": True}]
)
def test_other_cpus_keep_llvms_choice(unset, monkeypatch, features):
    host(monkeypatch, **features)
    assert not compiled.prefer_wide_vectors()
    assert config.CPU_FEATURES is None


def test_the_users_choice_of_features_or_cpu_stands(unset, monkeypatch):
    host(monkeypatch, **{"avx512f": True, "amx-tile": True})
    monkeypatch.setattr(config, "CPU_FEATURES", "+avx2")
    assert not compiled.prefer_wide_vectors()
    assert config.CPU_FEATURES == "+avx2"
    monkeypatch.setattr(config, "CPU_FEATURES", None)
    monkeypatch.setattr(config, "CPU_NAME", "generic")
    assert not compiled.prefer_wide_vectors()
    assert config.CPU_FEATURES is None


def test_the_user_can_opt_out(unset, monkeypatch):
    host(monkeypatch, **{"avx512f": True, "amx-tile": True})
    monkeypatch.setenv(compiled.OPT_OUT, "0")
    assert not compiled.prefer_wide_vectors()
    assert config.CPU_FEATURES is None
