"""Pretraining on a GPU, whenever one is available (skipped otherwise)."""

import numpy
import pytest
import torch

from spacy_senna.lm.pretrain import pretrain
from spacy_senna.lm.vectors_pipeline import read_vectors

pytestmark = pytest.mark.skipif(not torch.cuda.is_available(), reason="no CUDA GPU")


def test_gpu_run_learns_checkpoints_and_resumes(tmp_path, corpus_path, config):
    out = tmp_path / "lm"
    first = pretrain([corpus_path], out, config(device="cuda", max_words=6400))
    assert first["device"].startswith("cuda")
    curve = [p["valid_loss"] for p in first["validation"]]
    assert curve[0] > 0.8 and curve[-1] < 0.5 * curve[0]
    resumed = pretrain([corpus_path], out, config(device="cuda", max_words=12800), resume=True)
    assert resumed["words_seen"] == 12800
    assert resumed["validation"][: len(curve)] == first["validation"]
    words, table = read_vectors(out)
    assert table.shape == (len(words), 50) and numpy.isfinite(table).all()


def test_default_device_is_the_gpu(tmp_path, corpus_path, config):
    meta = pretrain([corpus_path], tmp_path / "lm", config(device="", max_words=640))
    assert meta["device"].startswith("cuda")


def test_a_gpu_checkpoint_resumes_on_the_cpu(tmp_path, corpus_path, config):
    out = tmp_path / "lm"
    pretrain([corpus_path], out, config(device="cuda", max_words=3200))
    resumed = pretrain([corpus_path], out, config(max_words=6400), resume=True)
    assert resumed["device"] == "cpu" and resumed["words_seen"] == 6400
