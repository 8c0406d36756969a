"""The garbage collector's pause around a labelled batch: paused for the block only, and
left as the caller set it (off stays off; an error inside re-enables it). That `nlp.pipe`
pauses it while labelling only: tests/pipeline/test_sequence_labeler.py."""

import gc

import pytest

from spacy_senna.runtime.collector import collector_paused


@pytest.fixture
def collector_on():
    was = gc.isenabled()
    gc.enable()
    yield
    if not was:
        gc.disable()


def test_pause_holds_for_the_block_only(collector_on):
    with collector_paused():
        assert not gc.isenabled()
    assert gc.isenabled()


def test_an_error_in_the_block_leaves_the_collector_running(collector_on):
    with pytest.raises(RuntimeError):
        with collector_paused():
            raise RuntimeError("boom")
    assert gc.isenabled()


def test_a_collector_the_caller_turned_off_stays_off(collector_on):
    gc.disable()
    with collector_paused():
        assert not gc.isenabled()
    assert not gc.isenabled()
