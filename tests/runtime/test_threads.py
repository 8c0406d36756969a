"""The torch thread setting the components run under (SPACY_SENNA_THREADS)."""

import pytest
import torch

from spacy_senna.runtime.threads import torch_threads


def test_components_thread_setting_is_restored(monkeypatch):
    before = torch.get_num_threads()
    torch.set_num_threads(2)  # differs from the components' 1, so the restore path runs
    try:
        monkeypatch.setenv("SPACY_SENNA_THREADS", "1")
        with torch_threads():
            assert torch.get_num_threads() == 1
        assert torch.get_num_threads() == 2
    finally:
        torch.set_num_threads(before)
    monkeypatch.setenv("SPACY_SENNA_THREADS", "zero")
    with pytest.raises(ValueError, match="SPACY_SENNA_THREADS"):
        with torch_threads():
            pass
