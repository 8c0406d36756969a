"""A batch's token columns read once per doc while a component predicts, read again
everywhere else, and never shared with another thread's block."""

import threading

import pytest
from spacy.attrs import SENT_START, TAG
from spacy.lang.en import English

from spacy_senna.features.kept_columns import columns_kept, doc_column


@pytest.fixture
def doc():
    doc = English()("The cat sat on the mat .")
    for token, tag in zip(doc, ["DT", "NN", "VBD", "IN", "DT", "NN", "."]):
        token.tag_ = tag
    return doc


def test_outside_a_block_each_read_sees_the_doc_as_it_is(doc):
    first = doc_column(doc, TAG)
    doc[1].tag_ = "NNS"
    assert doc_column(doc, TAG)[1] == doc.vocab.strings["NNS"]
    assert first[1] == doc.vocab.strings["NN"]


def test_inside_a_block_a_column_is_read_once_and_is_read_only(doc):
    with columns_kept():
        first = doc_column(doc, TAG)
        assert doc_column(doc, TAG) is first
        assert doc_column(doc, SENT_START) is not first
        with pytest.raises(ValueError):
            first[0] = 0
    doc[1].tag_ = "NNS"
    assert doc_column(doc, TAG)[1] == doc.vocab.strings["NNS"]


def test_another_threads_reads_are_not_kept_by_this_block(doc):
    seen = []
    with columns_kept():
        kept = doc_column(doc, TAG)
        worker = threading.Thread(target=lambda: seen.append(doc_column(doc, TAG)))
        worker.start()
        worker.join()
    assert seen[0] is not kept and (seen[0] == kept).all()
