"""A damaged model file fails `spacy.load` in one line naming the pipeline, the component
and the file: truncated, or flipped bytes in its header."""

import shutil

import pytest
import spacy
import srsly
from spacy.lang.en import English

from spacy_senna.pipeline.model_file import DamagedModel

TEXT = "John Smith visited Paris today."


def damaged_copy(pipeline_dir, tmp_path, component, damage):
    """A copy of the pipeline whose `component/model` bytes are `damage(bytes)`."""
    copy = tmp_path / "damaged"
    shutil.copytree(pipeline_dir, copy)
    model = copy / component / "model"
    model.write_bytes(damage(model.read_bytes()))
    return copy


def flip(data, offset):
    data = bytearray(data)
    data[offset] ^= 0xFF
    return bytes(data)


def test_a_truncated_model_file_is_named_in_one_line(pipeline_dir, tmp_path):
    copy = damaged_copy(pipeline_dir, tmp_path, "senna_ner", lambda d: d[: len(d) // 2])
    with pytest.raises(DamagedModel) as raised:
        spacy.load(copy)
    assert str(raised.value) == (
        f"{copy}: senna_ner/model is damaged (truncated or corrupted: Unpack failed: "
        "incomplete input); reinstall or retrain the pipeline"
    )


def test_flipped_bytes_in_a_header_are_named_in_one_line(pipeline_dir, tmp_path):
    # byte 20 is inside the first node's name, a UTF-8 string
    copy = damaged_copy(pipeline_dir, tmp_path, "senna_srl", lambda d: flip(d, 20))
    with pytest.raises(DamagedModel) as raised:
        spacy.load(copy)
    message = str(raised.value)
    assert message.startswith(f"{copy}: senna_srl/model is damaged (truncated or corrupted: ")
    assert "\n" not in message and "utf-8" in message


def test_damaged_bytes_name_the_component():
    nlp = English()
    nlp.add_pipe("senna_words")
    nlp.add_pipe("senna_tagger")
    data = srsly.msgpack_loads(nlp.get_pipe("senna_words").to_bytes())
    data["model"] = data["model"][:-100]
    with pytest.raises(DamagedModel, match="^senna_words: the model is damaged"):
        nlp.get_pipe("senna_words").from_bytes(srsly.msgpack_dumps(data))
