"""A damaged model file fails `spacy.load` in one line naming the pipeline, the component
and the file: truncated, flipped bytes in its header, or weights that fail their checksum;
a model saved before the checksum still loads."""

import shutil
import zlib

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


def weights_offset(data):
    """The offset of a byte in the middle of the weights in a model file."""
    shim = srsly.msgpack_loads(srsly.msgpack_loads(data)["shims"][0][0])
    start = data.index(shim["state"])
    return start + len(shim["state"]) // 2


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


def test_flipped_bytes_inside_the_weights_fail_their_checksum(pipeline_dir, tmp_path):
    copy = damaged_copy(
        pipeline_dir, tmp_path, "senna_tagger", lambda d: flip(d, weights_offset(d))
    )
    with pytest.raises(DamagedModel) as raised:
        spacy.load(copy)
    assert str(raised.value) == (
        f"{copy}: senna_tagger/model is damaged (truncated or corrupted: the weights do not "
        "match their CRC-32 checksum); reinstall or retrain the pipeline"
    )


def test_damaged_bytes_name_the_component():
    nlp = English()
    nlp.add_pipe("senna_words")
    nlp.add_pipe("senna_tagger")
    data = srsly.msgpack_loads(nlp.get_pipe("senna_words").to_bytes())
    data["model"] = data["model"][:-100]
    with pytest.raises(DamagedModel, match="^senna_words: the model is damaged"):
        nlp.get_pipe("senna_words").from_bytes(srsly.msgpack_dumps(data))


def test_a_model_saved_without_a_checksum_loads_as_before(pipeline_dir, tmp_path):
    def without_checksum(data):
        msg = srsly.msgpack_loads(data)
        shim = srsly.msgpack_loads(msg["shims"][0][0])
        assert shim.pop("crc32") == zlib.crc32(shim["state"])
        msg["shims"][0][0] = srsly.msgpack_dumps(shim)
        return srsly.msgpack_dumps(msg)

    copy = damaged_copy(pipeline_dir, tmp_path, "senna_tagger", without_checksum)
    doc = spacy.load(copy)(TEXT)
    assert doc.to_bytes() == spacy.load(pipeline_dir)(TEXT).to_bytes()
