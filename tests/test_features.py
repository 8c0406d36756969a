"""Token features: SpanTagFeature (IOBES tags of a span group)."""

from spacy.lang.en import English
from spacy.tokens import Doc, Span
from spacy.util import registry

import spacy_senna  # noqa: F401
from spacy_senna.lexicon import UNKNOWN


def test_span_tag_feature_reads_iobes_and_marks_a_missing_group_unknown():
    vocab = English().vocab
    feature = registry.misc.get("spacy-senna.SpanTagFeature.v1")(spans_key="pt0", width=5)
    doc = Doc(vocab, words="The big cat sat down".split())
    doc.spans["pt0"] = [Span(doc, 0, 3, "NP"), Span(doc, 3, 4, "VP")]
    assert feature.doc_strings(doc) == ["B-NP", "I-NP", "E-NP", "S-VP", "O"]
    feature.fit([doc])
    ids = feature.extract(doc)[:, 0]
    assert len(set(ids.tolist())) == 5 and UNKNOWN not in ids
    bare = Doc(vocab, words="The big cat".split())
    assert (feature.extract(bare)[:, 0] == UNKNOWN).all()
