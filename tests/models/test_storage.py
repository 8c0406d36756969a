"""float16 storage: half the weights' size on disk, the same labels after loading, and the
setting kept when a loaded pipeline is saved again."""

import pytest
import spacy
import torch

from spacy_senna.models.storage import set_storage_dtype

TEXTS = ["John Smith visited Paris today.", "Mary saw the big house in Berlin."]


def _labels(nlp):
    docs = list(nlp.pipe(TEXTS))
    return [
        (
            [t.tag_ for t in doc],
            [(s.start, s.end, s.label_) for s in doc.spans["chunks"]],
            [(e.start, e.end, e.label_) for e in doc.ents],
            {key: [(s.start, s.end, s.label_) for s in doc.spans[key]] for key in doc.spans},
        )
        for doc in docs
    ]


def _model_bytes(path):
    return sum(f.stat().st_size for f in path.glob("senna_*/model"))


def test_float16_halves_the_weights_and_keeps_the_labels(pipeline_dir, tmp_path):
    nlp = spacy.load(pipeline_dir)
    assert set_storage_dtype(nlp, "float16") == [
        "senna_tagger",
        "senna_chunker",
        "senna_ner",
        "senna_srl",
    ]
    nlp.to_disk(tmp_path / "half")
    half = spacy.load(tmp_path / "half")
    assert _model_bytes(tmp_path / "half") < 0.6 * _model_bytes(pipeline_dir)
    assert _labels(half) == _labels(spacy.load(pipeline_dir))
    # computation stays float32 after loading
    net = half.get_pipe("senna_tagger").model.shims[0]._model
    assert {p.dtype for p in net.parameters()} == {torch.float32}
    # saved again, the pipeline keeps float16 storage
    half.to_disk(tmp_path / "again")
    assert _model_bytes(tmp_path / "again") == _model_bytes(tmp_path / "half")


def test_a_disabled_component_is_stored_as_set_too(pipeline_dir, tmp_path):
    nlp = spacy.load(pipeline_dir)
    nlp.disable_pipe("senna_srl")
    assert "senna_srl" in set_storage_dtype(nlp, "float16")
    nlp.to_disk(tmp_path / "half")
    full = (pipeline_dir / "senna_srl" / "model").stat().st_size
    assert (tmp_path / "half" / "senna_srl" / "model").stat().st_size < 0.6 * full


def test_unknown_storage_dtype_is_named(pipeline_dir):
    nlp = spacy.load(pipeline_dir)
    with pytest.raises(ValueError, match=r"one of \('float32', 'float16'\), got 'int8'"):
        set_storage_dtype(nlp, "int8")
