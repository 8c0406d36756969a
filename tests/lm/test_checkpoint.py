"""Resuming from checkpoints: exact continuation, refusal on other settings."""

import os
import shutil

import numpy
import pytest
import torch

from spacy_senna.lm.checkpoint import checkpoint_path
from spacy_senna.lm.pretrain import pretrain
from spacy_senna.lm.vectors_pipeline import read_vectors


def test_resume_continues_exactly(tmp_path, corpus_path, config):
    straight = pretrain([corpus_path], tmp_path / "a", config(max_words=3200))
    pretrain([corpus_path], tmp_path / "b", config(max_words=1600))
    resumed = pretrain([corpus_path], tmp_path / "b", config(max_words=3200), resume=True)
    assert resumed["words_seen"] == straight["words_seen"] == 3200
    _, table_a = read_vectors(tmp_path / "a")
    _, table_b = read_vectors(tmp_path / "b")
    numpy.testing.assert_allclose(table_a, table_b, atol=1e-6)
    assert resumed["validation"][0] == straight["validation"][0]


def test_a_checkpoint_with_a_gpu_generators_state_gets_a_clear_error(tmp_path, corpus_path, config):
    """Before negatives were drawn on the CPU, a GPU run saved its CUDA generator's state
    (16 bytes), which a CPU generator cannot take."""
    pretrain([corpus_path], tmp_path / "lm", config(max_words=640))
    path = checkpoint_path(tmp_path / "lm")
    checkpoint = torch.load(path, weights_only=True)
    checkpoint["generator"] = torch.zeros(16, dtype=torch.uint8)
    torch.save(checkpoint, path)
    with pytest.raises(ValueError, match="random state is not a CPU generator's"):
        pretrain([corpus_path], tmp_path / "lm", config(max_words=1280), resume=True)


def test_resume_with_other_settings_errors(tmp_path, corpus_path, config):
    pretrain([corpus_path], tmp_path / "lm", config(max_words=640))
    with pytest.raises(ValueError, match="negatives: checkpoint 4, now 8"):
        pretrain([corpus_path], tmp_path / "lm", config(negatives=8), resume=True)
    with pytest.raises(FileNotFoundError, match="no checkpoint"):
        pretrain([corpus_path], tmp_path / "other", config(), resume=True)


def test_resume_after_the_inputs_were_copied_but_not_after_they_changed(
    tmp_path, corpus_path, config
):
    """Copied back in place (new mtime, same bytes) resumes; same size, new bytes does not."""
    text = tmp_path / "corpus.txt"
    shutil.copy(corpus_path, text)
    pretrain([text], tmp_path / "lm", config(max_words=640))
    os.utime(text, (1, 1))
    resumed = pretrain([text], tmp_path / "lm", config(max_words=1280), resume=True)
    assert resumed["words_seen"] == 1280
    data = text.read_bytes()
    text.write_bytes(data[:-2] + data[-2:][::-1])
    with pytest.raises(ValueError, match="input files changed"):
        pretrain([text], tmp_path / "lm", config(max_words=1920), resume=True)
