"""The character feature (spacy-senna.CharFeature.v1): its ids, its place among the other
features' columns, and components that read it (window and sentence networks): learning,
save/load, pipe, bad input."""

import numpy
import pytest
import spacy
import torch
from spacy.lang.en import English
from spacy.tokens import Doc, Span
from spacy.training import Example
from spacy.util import fix_random_seed, make_tempdir
from spacy.vocab import Vocab
from thinc.api import Adam

import spacy_senna  # noqa: F401
from spacy_senna.features import WORD_MARKS, CharFeature, Featurizer, word_feature
from spacy_senna.layers.lexicon import PADDING, UNKNOWN
from spacy_senna.models.senna_model import get_net
from spacy_senna.pipeline.whitespace import SPACE_TAG


def char_feature(**settings):
    options = dict(char_width=25, width=30, window=3, max_chars=20, min_freq=1)
    return CharFeature(**{**options, **settings})


def fitted(words, **settings):
    feature = char_feature(**settings)
    feature.fit([Doc(Vocab(), words=words)])
    return feature


def test_ids_are_marks_characters_then_padding_and_keep_case():
    feature = fitted(["cat", "Cat", "act"], max_chars=6)
    lex = feature.lexicons[0]
    begin, end = lex.get(WORD_MARKS[0]), lex.get(WORD_MARKS[1])
    ids = feature.text_ids("cat")
    assert len(ids) == feature.n_columns == 8
    assert ids == [begin, lex.get("c"), lex.get("a"), lex.get("t"), end, PADDING, PADDING, PADDING]
    assert len({begin, end, *ids[1:4]}) == 5 and PADDING not in ids[:5] and UNKNOWN not in ids
    assert feature.text_ids("Cat")[1] == lex.get("C") != lex.get("c")


def test_long_words_keep_their_first_and_last_characters():
    feature = fitted(["internationalization"], max_chars=6)
    assert feature.chars("internationalization") == "intion"
    assert feature.chars("abcdef") == "abcdef"
    assert fitted(["abcdefg"], max_chars=5).chars("abcdefg") == "abcfg"
    assert fitted(["abc"], max_chars=1).chars("abc") == "a"
    ids = feature.text_ids("internationalization")
    assert PADDING not in ids and ids[-2] == feature.lexicons[0].get("n")
    # the default keeps 10 + 10: "-ization" survives in a 28-character word
    default = fitted(["antidisestablishmentarianism"])
    assert default.chars("antidisestablishmentarianism") == "antidisest" + "ntarianism"


def test_rare_unseen_empty_and_odd_characters():
    feature = fitted(["aab", "ba"], min_freq=2)
    lex = feature.lexicons[0]
    assert "a" in lex and "b" in lex and "c" not in lex
    for text in ["c", "é", "😀", " ", "\n"]:
        assert feature.text_ids(text)[1] == UNKNOWN
    begin, end = lex.get(WORD_MARKS[0]), lex.get(WORD_MARKS[1])
    assert feature.text_ids("") == [begin, end] + [PADDING] * 20
    assert "a" in fitted(["a", "aa"], min_freq=3).lexicons[0]
    assert "a" not in fitted(["a"], min_freq=2).lexicons[0]
    assert fitted(["naïve", "😀👍🏽"]).text_ids("naïve")[3] != UNKNOWN


@pytest.mark.parametrize(
    "settings, message",
    [
        ({"max_chars": 0}, "max_chars"),
        ({"window": 2}, "odd"),
        ({"width": 0}, "width"),
    ],
)
def test_bad_settings_are_named(settings, message):
    with pytest.raises(ValueError, match=message):
        char_feature(**settings)


def test_featurizer_puts_character_columns_after_the_tables():
    chars = char_feature(max_chars=4)
    featurizer = Featurizer({"chars": chars, "word": word_feature(width=7)})
    vocab = Vocab()
    doc = Doc(vocab, words=["ab", "b", "ab"])
    featurizer.fit([doc])
    assert featurizer.widths == [7] and featurizer.table_sizes == [4]
    assert featurizer.initial_tables() == [None]
    assert featurizer.char_cnns == [chars.cnn_spec()]
    assert chars.cnn_spec().n_columns == 6 and chars.cnn_spec().n_chars == 6
    ids = featurizer.extract(doc)
    assert ids.shape == (3, 1 + 6)
    word = featurizer.features["word"].lexicons[0]
    assert ids[:, 0].tolist() == [word.get("ab"), word.get("b"), word.get("ab")]
    assert ids[1, 1:].tolist() == chars.text_ids("b")
    assert featurizer.extract(doc).tolist() == ids.tolist()  # cached per orth
    assert featurizer.extract(Doc(vocab, words=[])).shape == (0, 7)


# components reading the character feature


def config(component, architecture="spacy-senna.WindowTagger.v1", extra=""):
    """A pipeline config whose component reads only the character feature (+ `extra`)."""
    return spacy.util.load_config_from_str(
        f"""
[nlp]
lang = "en"
pipeline = ["{component}"]

[components]

[components.{component}]
factory = "{component}"

[components.{component}.model]
@architectures = "{architecture}"
hidden_width = 64

[components.{component}.model.features]
word = null
caps = null
suffix = null

[components.{component}.model.features.chars]
@misc = "spacy-senna.CharFeature.v1"
char_width = 10
width = 20
{extra}
"""
    )


# the tag depends on the suffix only (not on the position in the sentence)
SUFFIX_TAGS = {"ing": "VBG", "ed": "VBD", "s": "NNS"}
TRAIN_SENTENCES = [
    "walking talked cats".split(),
    "dogs running jumped".split(),
    "played birds singing".split(),
    "trees looked going hopped".split(),
    "cups making asked".split(),
    "pulled taking lamps books".split(),
    "calling kicked pens".split(),
    "thinking desks filled".split(),
]


def suffix_tag(word):
    return next(tag for suffix, tag in SUFFIX_TAGS.items() if word.endswith(suffix))


def suffix_examples(nlp):
    return [
        Example.from_dict(Doc(nlp.vocab, words=s), {"tags": [suffix_tag(w) for w in s]})
        for s in TRAIN_SENTENCES
    ]


@pytest.fixture(scope="module")
def char_tagger():
    fix_random_seed(0)
    nlp = English.from_config(config("senna_tagger"))
    examples = suffix_examples(nlp)
    nlp.initialize(lambda: examples)
    optimizer = Adam(0.01)
    losses = []
    for _ in range(40):
        step = {}
        nlp.update(examples, sgd=optimizer, losses=step)
        losses.append(step["senna_tagger"])
    return nlp, losses


def test_a_tagger_with_only_characters_learns_a_suffix_task(char_tagger):
    nlp, losses = char_tagger
    assert losses[-1] < losses[0] * 0.02
    tagger = nlp.get_pipe("senna_tagger")
    names = [n for n, _ in get_net(tagger.model).named_parameters()]
    assert "emission_net.lookup.chars.0.conv.weight" in names
    assert not any(".tables." in n for n in names)
    for words in [TRAIN_SENTENCES[1], "reading baked rats".split(), "cooked hats eating".split()]:
        assert [t.tag_ for t in nlp(Doc(nlp.vocab, words=words))] == [suffix_tag(w) for w in words]


ODD_TEXTS = [
    ["Walking", "talked", "cat"],
    [" ", "\n", "x" * 1000, "\t"],
    ["naïve", "😀", "👍🏽", "café", "Ünïcodes"],
    ["walking"],
    [],
]


def emissions(nlp, words_list):
    model = nlp.get_pipe("senna_tagger").model
    docs = [Doc(nlp.vocab, words=words) for words in words_list]
    scores = model.predict(docs)
    return scores.emissions.cpu().numpy(), [[t.tag_ for t in nlp(d)] for d in docs]


def test_unseen_words_get_distinct_vectors_and_a_word_always_the_same(char_tagger):
    nlp, _ = char_tagger
    net = get_net(nlp.get_pipe("senna_tagger").model).emission_net
    featurizer = nlp.get_pipe("senna_tagger").model.attrs["featurizer"]
    words = ["gnikaw", "waking", "walking", "Walking", "walking", "kingwal"]
    ids = featurizer.extract(Doc(nlp.vocab, words=words))
    with torch.no_grad():
        vectors = net.lookup(torch.from_numpy(ids).to(next(net.parameters()).device))
    assert vectors.shape == (6, 20)
    assert torch.equal(vectors[2], vectors[4])
    distinct = [vectors[i] for i in (0, 1, 2, 3, 5)]
    for i, a in enumerate(distinct):
        for b in distinct[i + 1 :]:
            assert not torch.allclose(a, b)


def test_odd_input_is_tagged(char_tagger):
    nlp, _ = char_tagger
    scores, tags = emissions(nlp, ODD_TEXTS)
    assert numpy.isfinite(scores).all()
    assert [len(t) for t in tags] == [len(w) for w in ODD_TEXTS]
    for words, doc_tags in zip(ODD_TEXTS, tags):
        for word, tag in zip(words, doc_tags):
            assert tag == SPACE_TAG if word.isspace() else tag in SUFFIX_TAGS.values()


def test_save_load_and_pipe_give_identical_output(char_tagger):
    nlp, _ = char_tagger
    expected_scores, expected_tags = emissions(nlp, ODD_TEXTS)
    texts = ["walking talked cats", "Reading 😀 naïve cafés", "", "  ", "x" * 300]
    expected = [[t.tag_ for t in nlp(text)] for text in texts]
    for batch_size in (1, 2, 8):
        assert [[t.tag_ for t in d] for d in nlp.pipe(texts, batch_size=batch_size)] == expected
    loaded = English.from_config(nlp.config).from_bytes(nlp.to_bytes())
    with make_tempdir() as d:
        nlp.to_disk(d)
        from_disk = spacy.load(d)
    for other in (loaded, from_disk):
        scores, tags = emissions(other, ODD_TEXTS)
        assert numpy.array_equal(scores, expected_scores) and tags == expected_tags
        assert [[t.tag_ for t in d] for d in other.pipe(texts)] == expected
    chars = loaded.get_pipe("senna_tagger").model.attrs["featurizer"].features["chars"]
    assert (
        chars.lexicons[0].to_list()
        == (
            nlp.get_pipe("senna_tagger").model.attrs["featurizer"].features["chars"].lexicons[0]
        ).to_list()
    )


def test_characters_with_word_and_caps_features(tagger_examples, tagged_sentences):
    nlp = English()
    nlp.add_pipe(
        "senna_tagger",
        config={"model": {"features": {"chars": {"@misc": "spacy-senna.CharFeature.v1"}}}},
    )
    examples = tagger_examples(nlp)
    optimizer = nlp.initialize(lambda: examples)
    model = nlp.get_pipe("senna_tagger").model
    assert sorted(model.attrs["featurizer"].features) == ["caps", "chars", "suffix", "word"]
    assert get_net(model).emission_net.lookup.width == 50 + 5 + 5 + 30
    for _ in range(30):
        nlp.update(examples, sgd=optimizer)
    for text, tags in tagged_sentences:
        assert [t.tag_ for t in nlp(text)] == tags


# the sentence network (senna_srl) with the character feature

SRL_SENTENCES = [
    ("The cat chased the mouse .".split(), {2: [("A0", 0, 2), ("V", 2, 3), ("A1", 3, 5)]}),
    ("Dogs barked loudly .".split(), {1: [("A0", 0, 1), ("V", 1, 2), ("AM-MNR", 2, 3)]}),
]


def srl_input(nlp, words, predicates):
    doc = Doc(nlp.vocab, words=words)
    doc.spans["srl_predicates"] = [Span(doc, p, p + 1) for p in predicates]
    return doc


def test_srl_sentence_network_reads_the_character_feature(srl_reference_doc, srl_frames_of):
    fix_random_seed(0)
    nlp = English.from_config(config("senna_srl", "spacy-senna.SentenceTagger.v1"))
    examples = []
    for words, frames in SRL_SENTENCES:
        ref = srl_reference_doc(nlp.vocab, words, ["X"] * len(words), frames)
        examples.append(Example(srl_input(nlp, words, list(frames)), ref))
    optimizer = nlp.initialize(lambda: examples)
    net = get_net(nlp.get_pipe("senna_srl").model).emission_net
    assert net.lookup.width == 20 and net.conv.in_channels == 20
    losses = []
    for _ in range(60):
        step = {}
        nlp.update(examples, sgd=optimizer, losses=step)
        losses.append(step["senna_srl"])
    assert losses[-1] < losses[0] * 0.05
    docs = [srl_input(nlp, words, list(frames)) for words, frames in SRL_SENTENCES]
    expected = [{p: sorted(args) for p, args in frames.items()} for _, frames in SRL_SENTENCES]
    assert [srl_frames_of(nlp(d)) for d in docs] == expected
    loaded = English.from_config(nlp.config).from_bytes(nlp.to_bytes())
    docs = [srl_input(loaded, words, list(frames)) for words, frames in SRL_SENTENCES]
    assert [srl_frames_of(d) for d in loaded.pipe(docs)] == expected
    odd = srl_input(loaded, [" ", "😀", "x" * 500, "é"], [1])
    assert set(srl_frames_of(loaded(odd))) == {1}
