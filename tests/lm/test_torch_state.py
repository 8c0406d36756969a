"""Pretraining leaves torch's global state (threads, random generator) as it found it."""

import pytest
import torch

from spacy_senna.lm.pretrain import pretrain
from spacy_senna.lm.vectors_pipeline import read_vectors


@pytest.fixture
def two_threads():
    """torch set to 2 threads (the runs below use 1), the caller's setting restored after."""
    before = torch.get_num_threads()
    torch.set_num_threads(2)
    yield
    torch.set_num_threads(before)


def test_threads_and_random_state_are_restored(tmp_path, corpus_path, config, two_threads):
    torch.manual_seed(123)
    rng_state = torch.get_rng_state()
    meta = pretrain([corpus_path], tmp_path / "lm", config(threads=1, max_words=640))
    assert meta["threads"] == 1  # the run used its own setting
    assert torch.get_num_threads() == 2
    assert torch.equal(torch.get_rng_state(), rng_state)
    # also when the run fails after setting its threads (here: while reading its input)
    binary = tmp_path / "model.bin"
    binary.write_bytes(bytes(range(256)) * 10)
    with pytest.raises(ValueError, match="does not look like UTF-8"):
        pretrain([binary], tmp_path / "bad", config(threads=1))
    assert torch.get_num_threads() == 2


def test_results_depend_on_the_seed_not_the_global_generator(tmp_path, corpus_path, config):
    tables = []
    for name, global_seed, seed in (("a", 1, 0), ("b", 2, 0), ("c", 1, 5)):
        torch.manual_seed(global_seed)
        pretrain([corpus_path], tmp_path / name, config(max_words=640, seed=seed))
        tables.append(read_vectors(tmp_path / name)[1])
    assert (tables[0] == tables[1]).all()
    assert not (tables[0] == tables[2]).all()
