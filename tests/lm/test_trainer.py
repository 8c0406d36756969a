"""The training loop: limits and the curriculum."""

import pytest
import spacy

from spacy_senna.lm.checkpoint import work_dir
from spacy_senna.lm.pretrain import pretrain


def test_max_words_stops_cleanly(tmp_path, corpus_path, config):
    out = tmp_path / "lm"
    meta = pretrain([corpus_path], out, config(max_words=640, epochs=50, batch_size=64))
    assert meta["words_seen"] == 640 and meta["stop_reason"] == "limit reached"
    assert meta["words_per_cpu_second"] > 0
    assert spacy.load(out).vocab.vectors.n_keys > 0
    assert (work_dir(out) / "checkpoint.pt").exists()
    assert not [p for p in tmp_path.iterdir() if ".tmp" in p.name]


@pytest.mark.parametrize("init", ["random", "unknown"])
def test_curriculum_grows_the_dictionary(tmp_path, corpus_path, config, init):
    meta = pretrain(
        [corpus_path],
        tmp_path / "lm",
        config(
            vocab_size=20,
            curriculum=[5, 10, 20],
            curriculum_init=init,
            max_words=3000,
            eval_every_words=500,
        ),
    )
    sizes = [p["dictionary"] for p in meta["validation"]]
    assert sizes[0] == 5 and sizes[-1] == 20 and 10 in sizes and sizes == sorted(sizes)
    assert spacy.load(tmp_path / "lm").vocab.vectors.shape == (20, 50)
    with pytest.raises(ValueError, match="must end at the dictionary size"):
        pretrain([corpus_path], tmp_path / "x", config(vocab_size=30, curriculum=[5, 20]))
