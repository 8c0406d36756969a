"""Token features: SpanTagFeature (IOBES tags of a span group), unknown features and
attributes named in the config error, the word table started from nlp.vocab.vectors."""

import numpy
import pytest
import spacy
from spacy.lang.en import English
from spacy.tokens import Doc, Span
from spacy.util import registry
from thinc.api import Adam

import spacy_senna  # noqa: F401
from spacy_senna.features import Featurizer
from spacy_senna.layers.lexicon import UNKNOWN
from spacy_senna.models.senna_model import get_net


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
    # ids are the tags' ids, token by token: a label never seen, nested and overlapping spans
    doc.spans["pt0"] = [Span(doc, 0, 4, "S"), Span(doc, 1, 3, "NP"), Span(doc, 2, 5, "PP")]
    lex = feature.lexicons[0]
    expected = [lex.get(tag) for tag in feature.doc_strings(doc)]
    assert feature.extract(doc)[:, 0].tolist() == expected and UNKNOWN in expected


@pytest.mark.parametrize("attr", ["tag_", "pos_", "ent_type_", "lemma_"])
def test_attr_feature_ids_follow_the_token_strings_and_a_refit(attr):
    """The ids read from a Doc.to_array column and cached per value are those of the
    tokens' strings, and a refit (or load) with another dictionary is not served stale ids."""
    vocab = English().vocab
    feature = registry.misc.get("spacy-senna.AttrFeature.v1")(attr=attr, width=5)
    first = Doc(
        vocab,
        words="a b c d".split(),
        tags=["DT", "NN", "DT", "VB"],
        pos=["DET", "NOUN", "DET", "VERB"],
        lemmas=["a", "b", "a", "d"],
        ents=["B-PER", "O", "B-ORG", "O"],
    )
    other = Doc(
        vocab,
        words="e f".split(),
        tags=["VB", "JJ"],
        pos=["VERB", "ADJ"],
        lemmas=["d", "f"],
        ents=["B-ORG", "B-LOC"],
    )

    def expected(doc):
        lex = feature.lexicons[0]
        return [lex.get(str(getattr(t, attr))) for t in doc]

    feature.fit([first])
    for doc in (first, other, first):
        assert feature.extract(doc)[:, 0].tolist() == expected(doc)
    assert UNKNOWN in feature.extract(other)[:, 0]  # JJ / ADJ / f / LOC: never seen
    feature.fit([other, first])
    for doc in (first, other):
        assert feature.extract(doc)[:, 0].tolist() == expected(doc)
    feature.from_dict({"lexicons": [list(reversed(feature.lexicons[0].to_list()))]})
    assert feature.extract(first)[:, 0].tolist() == expected(first)


def test_unknown_feature_in_config_is_named():
    nlp = English()
    with pytest.raises(Exception, match="NoSuchFeature"):
        nlp.add_pipe(
            "senna_tagger",
            config={"model": {"features": {"x": {"@misc": "spacy-senna.NoSuchFeature.v1"}}}},
        )
    with pytest.raises(ValueError, match="no_such_attr"):
        nlp.add_pipe(
            "senna_tagger",
            config={
                "model": {
                    "features": {
                        "x": {"@misc": "spacy-senna.AttrFeature.v1", "attr": "no_such_attr"}
                    }
                }
            },
        )


def test_word_table_starts_from_vectors_and_is_fine_tuned(tagger_examples):
    nlp = English()
    vector = numpy.arange(50, dtype="float32") / 50
    nlp.vocab.set_vector("eggs", vector)
    nlp.add_pipe("senna_tagger")
    examples = tagger_examples(nlp)
    optimizer = nlp.initialize(lambda: examples)
    tagger = nlp.get_pipe("senna_tagger")
    word = tagger.model.attrs["featurizer"].features["word"]
    row = word.lexicons[0].get("eggs")
    table = get_net(tagger.model).emission_net.lookup.tables[0].weight
    assert numpy.allclose(table[row].detach().cpu().numpy(), vector)
    for _ in range(5):
        nlp.update(examples, sgd=optimizer)
    assert not numpy.allclose(table[row].detach().cpu().numpy(), vector)
    assert "ham" in word.lexicons[0] or word.lexicons[0].get("ham") == 1


def test_word_table_keeps_its_vectors_with_fine_tune_vectors_off(tagger_examples, tmp_path):
    nlp = English()
    vector = numpy.arange(50, dtype="float32") / 50
    nlp.vocab.set_vector("eggs", vector)
    word_feature = {"@misc": "spacy-senna.WordFeature.v1", "fine_tune_vectors": False}
    nlp.add_pipe("senna_tagger", config={"model": {"features": {"word": word_feature}}})
    examples = tagger_examples(nlp)
    nlp.initialize(lambda: examples)
    optimizer = Adam(0.001)  # no weight decay, which would shrink every row

    def rows(nlp):
        tagger = nlp.get_pipe("senna_tagger")
        lexicon = tagger.model.attrs["featurizer"].features["word"].lexicons[0]
        table = get_net(tagger.model).emission_net.lookup.tables[0].weight.detach()
        # copies: the optimizer updates the weights in place
        return tuple(table[lexicon.get(w)].cpu().numpy().copy() for w in ("eggs", "ham"))

    _, ham = rows(nlp)
    for _ in range(5):
        nlp.update(examples, sgd=optimizer)
    eggs, trained_ham = rows(nlp)
    numpy.testing.assert_array_equal(eggs, vector)
    assert not numpy.allclose(trained_ham, ham)  # a word without a vector still learns
    # the kept rows are saved with the model: training the loaded pipeline keeps them too
    nlp.to_disk(tmp_path / "tagger")
    loaded = spacy.load(tmp_path / "tagger")
    for _ in range(5):
        loaded.update(tagger_examples(loaded), sgd=optimizer)
    numpy.testing.assert_array_equal(rows(loaded)[0], vector)


def test_fine_tune_vectors_off_without_vectors_warns(tagger_examples):
    nlp = English()
    word_feature = {"@misc": "spacy-senna.WordFeature.v1", "fine_tune_vectors": False}
    nlp.add_pipe("senna_tagger", config={"model": {"features": {"word": word_feature}}})
    with pytest.warns(UserWarning, match="fine_tune_vectors = false but nlp.vocab.vectors"):
        nlp.initialize(lambda: tagger_examples(nlp))


def test_null_leaves_a_default_feature_out():
    nlp = English()
    tagger = nlp.add_pipe("senna_tagger", config={"model": {"features": {"suffix": None}}})
    assert list(tagger.model.attrs["featurizer"].features) == ["word", "caps"]
    nothing = {"word": None, "caps": None, "suffix": None}
    with pytest.raises(ValueError, match="at least one feature"):
        English().add_pipe("senna_tagger", config={"model": {"features": nothing}})


def test_dictionaries_leave_whitespace_tokens_out():
    """Whitespace tokens never reach the networks as words, so no dictionary holds them."""
    vocab = English().vocab
    doc = Doc(vocab, words=["Hello", "\n\n", "world", " "], spaces=[False, False, False, False])
    features = {
        "word": registry.misc.get("spacy-senna.WordFeature.v1")(),
        "suffix": registry.misc.get("spacy-senna.SuffixFeature.v1")(),
        "chars": registry.misc.get("spacy-senna.CharFeature.v1")(),
    }
    for feature in features.values():
        feature.fit([doc])
    assert features["word"].lexicons[0].to_list()[-2:] == ["hello", "world"]
    assert not any(s.isspace() for s in features["word"].lexicons[0].to_list())
    assert not any(s.isspace() for s in features["suffix"].lexicons[0].to_list())
    assert "\n" not in features["chars"].lexicons[0] and " " not in features["chars"].lexicons[0]
    assert "o" in features["chars"].lexicons[0]


def test_a_batch_gets_the_ids_each_doc_gets_alone():
    """`extract_docs` reads each distinct word of a batch once: every doc still gets the
    ids of its own tokens, contextual columns included, and an empty doc none."""
    vocab = English().vocab
    misc = registry.misc
    features = {
        "word": misc.get("spacy-senna.WordFeature.v1")(),
        "tag": misc.get("spacy-senna.AttrFeature.v1")(attr="tag_", width=5),
        "caps": misc.get("spacy-senna.CapsFeature.v1")(),
        "chars": misc.get("spacy-senna.CharFeature.v1")(),
    }
    first = Doc(vocab, words="The cat saw the Cat".split(), tags=["DT", "NN", "VBD", "DT", "NN"])
    second = Doc(vocab, words="A dog saw Paris".split(), tags=["DT", "NN", "VB", "NNP"])
    empty = Doc(vocab, words=[])
    elsewhere = Doc(English().vocab, words="Zebrafish saw".split(), tags=["NN", "VBD"])
    featurizer = Featurizer(features)
    featurizer.fit([first])
    docs = [first, empty, second, elsewhere, first]  # one doc from another vocab
    batch = featurizer.extract_docs(docs)
    assert [ids.shape for ids in batch] == [(n, featurizer.n_columns) for n in (5, 0, 4, 2, 5)]
    for doc, ids in zip(docs, batch):
        expected = [
            features["word"].text_ids(t.text)
            + [features["tag"].lexicons[0].get(t.tag_)]
            + features["caps"].text_ids(t.text)
            + features["chars"].text_ids(t.text)
            for t in doc
        ]
        assert ids.tolist() == expected
        assert (Featurizer(features).extract(doc) == ids).all()


def test_ptb_escapes_are_learned_and_read_as_their_characters():
    """A corpus tokenized the Penn Treebank way trains the dictionaries of "(" and '"',
    and labelling reads "-LRB-" and "``" with the ids of the characters."""
    vocab = English().vocab
    features = {
        "word": registry.misc.get("spacy-senna.WordFeature.v1")(min_freq=1),
        "caps": registry.misc.get("spacy-senna.CapsFeature.v1")(),
        "suffix": registry.misc.get("spacy-senna.SuffixFeature.v1")(),
        "chars": registry.misc.get("spacy-senna.CharFeature.v1")(min_freq=1),
    }
    escaped = Doc(vocab, words="`` Acme -LRB- ACM -RRB- '' -lcb-".split())
    featurizer = Featurizer(features)
    featurizer.fit([escaped])
    assert {'"', "(", ")", "{"} <= set(features["word"].lexicons[0].to_list())
    assert "-lrb-" not in features["word"].lexicons[0].to_list()
    assert "L" not in features["chars"].lexicons[0]
    raw = Doc(vocab, words='" Acme ( ACM ) " {'.split())
    (from_escaped, from_raw) = featurizer.extract_docs([escaped, raw])
    assert (from_escaped == from_raw).all()
