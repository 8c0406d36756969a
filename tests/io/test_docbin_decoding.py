"""Docs read out of DocBins with the msgpack decoders looked up once: the same docs as
spaCy's reading (words, tags, span groups, user data), spacy-senna.Corpus.v1 reading
files as spacy.Corpus does (but stopping at its limit), and srsly's registry left as it
was, also after a failure."""

import numpy
import pytest
import srsly
from spacy.lang.en import English
from spacy.tokens import Doc, DocBin
from spacy.training import Corpus

from spacy_senna.corpora.readers import create_corpus_with_inputs
from spacy_senna.io.docbin_decoding import get_docs


def _docbin(nlp, n=6):
    docs = []
    for i in range(n):
        doc = Doc(nlp.vocab, words=[f"w{i}", "saw", "the", "cat"])
        doc[0].tag_ = "NN"
        doc.spans["chunks"] = [doc[0:1], doc[2:4]]
        doc.spans["constituents"] = [doc[0:4]]
        doc.user_data["vector"] = numpy.arange(i, i + 3, dtype="float32")
        docs.append(doc)
    docs.insert(2, Doc(nlp.vocab, words=[]))
    return DocBin(docs=docs, store_user_data=True)


def _content(doc):
    spans = {k: [(s.start, s.end, s.label_) for s in g] for k, g in doc.spans.items()}
    user = {k: v.tolist() for k, v in doc.user_data.items()}
    return [t.text for t in doc], [t.tag_ for t in doc], spans, user


def test_docs_equal_spacys_and_user_data_still_decoded():
    nlp = English()
    docbin = _docbin(nlp)
    ours = [_content(doc) for doc in get_docs(docbin, nlp.vocab)]
    assert ours == [_content(doc) for doc in docbin.get_docs(nlp.vocab)]
    # the numpy decoder (a registered msgpack decoder) turned the user data back to arrays
    assert ours[3][3] == {"vector": [2.0, 3.0, 4.0]}
    assert "get_all" not in srsly.msgpack_decoders.__dict__


def test_registry_restored_after_a_failed_decode():
    nlp = English()
    docbin = _docbin(nlp)
    docbin.span_groups[1] = b"not msgpack"
    with pytest.raises(Exception):
        list(get_docs(docbin, nlp.vocab))
    assert "get_all" not in srsly.msgpack_decoders.__dict__
    assert "numpy" in srsly.msgpack_decoders.get_all()


@pytest.mark.parametrize("limit", [0, 4])
def test_corpus_reads_files_as_spacy_corpus_does(tmp_path, limit):
    nlp = English()
    _docbin(nlp).to_disk(tmp_path / "a.spacy")
    _docbin(nlp, 3).to_disk(tmp_path / "b.spacy")
    (tmp_path / "notes.txt").write_text("not a corpus file")
    ours = create_corpus_with_inputs(tmp_path, copy_attrs=[], limit=limit)
    theirs = Corpus(tmp_path, limit=limit)
    got = [_content(eg.reference) for eg in ours(nlp)]
    expected = [_content(eg.reference) for eg in theirs(nlp)]
    assert len(got) == (limit or 9)  # the empty doc skipped
    assert got == expected[: len(got)]
