"""senna_words: components trained jointly on one shared word table (paper §5)."""

from pathlib import Path

import pytest
import spacy
import torch
from spacy.lang.en import English
from spacy.util import fix_random_seed, load_config, make_tempdir

import spacy_senna  # noqa: F401
from spacy_senna.corpora.readers import copy_inputs
from spacy_senna.layers import lookup
from spacy_senna.models.senna_model import get_net
from spacy_senna.runtime.last_call import LastCall

SHARED = {
    "features": {"word": None, "caps": None, "shared": {"@misc": "spacy-senna.SharedWords.v1"}}
}
JOINT_CONFIG = Path(__file__).resolve().parents[2] / "configs" / "open" / "joint.cfg"


def table_of(nlp):
    return nlp.get_pipe("senna_words").model.shims[0]._model


def joint_pipeline():
    nlp = English()
    nlp.add_pipe("senna_words")
    nlp.add_pipe("senna_tagger", config={"model": SHARED})
    nlp.add_pipe("senna_ner", config={"model": SHARED})
    return nlp


@pytest.fixture(scope="module")
def joint(span_examples):
    """(nlp, losses per step, word table before training) of senna_words + senna_tagger
    + senna_ner, both components reading the shared table only, trained together."""
    fix_random_seed(0)
    nlp = joint_pipeline()
    examples = span_examples(nlp)
    optimizer = nlp.initialize(lambda: examples)
    before = table_of(nlp).tables[0].weight.detach().clone()
    losses = []
    for _ in range(60):
        step = {}
        nlp.update(examples, sgd=optimizer, losses=step)
        losses.append(step)
    return nlp, losses, before


def test_components_trained_jointly_overfit_a_tiny_set(joint, span_sentences):
    nlp, losses, _ = joint
    for name in ("senna_tagger", "senna_ner"):
        assert losses[-1][name] < 0.05 * losses[0][name]
    for text, tags, ents, _ in span_sentences:
        doc = nlp(text)
        assert [t.tag_ for t in doc] == tags
        assert [(e.start, e.end, e.label_) for e in doc.ents] == ents


def test_the_table_is_one_set_of_parameters_that_both_components_train(joint):
    nlp, _, before = joint
    table = table_of(nlp)
    assert nlp.get_pipe("senna_words").listening_components == ["senna_tagger", "senna_ner"]
    assert not torch.equal(table.tables[0].weight, before)
    shared = {id(p) for p in table.parameters()}
    for name in ("senna_tagger", "senna_ner"):
        net = get_net(nlp.get_pipe(name).model)
        assert net.emission_net.lookup.shared() is table
        assert not shared & {id(p) for p in net.parameters()}  # saved and updated once


def test_each_listener_adds_its_gradient_to_the_table(span_examples):
    nlp = joint_pipeline()
    examples = span_examples(nlp)
    nlp.initialize(lambda: examples)
    weight = table_of(nlp).tables[0].weight

    def gradient(*names):
        weight.grad = None
        for name in names:
            nlp.get_pipe(name).update(examples)  # no sgd: the gradient stays in the table
        return weight.grad.clone()

    tagger, ner = gradient("senna_tagger"), gradient("senna_ner")
    assert tagger.abs().sum() > 0 and ner.abs().sum() > 0
    assert torch.allclose(gradient("senna_tagger", "senna_ner"), tagger + ner, atol=1e-6)


def test_save_load_gives_identical_output_and_pipe_equals_call(joint, span_sentences):
    nlp, _, _ = joint
    texts = [text for text, *_ in span_sentences]
    with make_tempdir() as path:
        nlp.to_disk(path)
        loaded = spacy.load(path)
    assert loaded.get_pipe("senna_words").listening_components == ["senna_tagger", "senna_ner"]
    for doc, piped, again in zip(map(nlp, texts), loaded.pipe(texts), map(loaded, texts)):
        assert [t.tag_ for t in doc] == [t.tag_ for t in piped] == [t.tag_ for t in again]
        assert [(e.start, e.end, e.label_) for e in doc.ents] == [
            (e.start, e.end, e.label_) for e in piped.ents
        ]
    assert torch.equal(table_of(loaded).tables[0].weight, table_of(nlp).tables[0].weight)


def test_the_second_listener_reads_the_ids_and_embeddings_the_first_made(
    span_examples, monkeypatch
):
    nlp = joint_pipeline()
    examples = span_examples(nlp)
    nlp.initialize(lambda: examples)
    table = table_of(nlp)
    words = nlp.get_pipe("senna_words").model.attrs["featurizer"]._cache
    made = {"ids": 0, "embeddings": 0}
    embed, rows = type(table)._embed, words.rows

    def embedding(self, ids):
        made["embeddings"] += self is table
        return embed(self, ids)

    def ids(*args):
        made["ids"] += 1
        return rows(*args)

    monkeypatch.setattr(type(table), "_embed", embedding)
    monkeypatch.setattr(words, "rows", ids)
    text = "Mary visited Berlin"  # not among the examples the tables were initialised on

    def labelled(ids, embeddings):
        made.update(ids=0, embeddings=0)
        doc = nlp(text)
        assert made == {"ids": ids, "embeddings": embeddings}
        return [t.tag_ for t in doc], [(e.start, e.end, e.label_) for e in doc.ents]

    before = labelled(ids=1, embeddings=1)  # the tagger's; the ner reads them
    assert labelled(ids=0, embeddings=0) == before  # the same doc again: all kept
    with torch.no_grad():
        table.tables[0].weight.mul_(-1.0)  # new weights: the same ids, new embeddings
    after = labelled(ids=0, embeddings=1)
    monkeypatch.setattr(LastCall, "get", lambda self, key: None)  # nothing kept
    monkeypatch.setattr(lookup, "KEPT_ROWS_CALL", 0)  # nor the listeners' rows
    assert labelled(ids=2, embeddings=2) == after


def test_a_listener_without_senna_words_before_it_is_a_clear_error(span_examples):
    nlp = English()
    nlp.add_pipe("senna_tagger", config={"model": SHARED})
    nlp.add_pipe("senna_words")  # after the tagger: it cannot be read
    examples = span_examples(nlp)
    with pytest.raises(ValueError, match="senna_words.*before it"):
        nlp.initialize(lambda: examples)


def test_a_named_upstream_links_only_that_table(span_examples):
    nlp = English()
    nlp.add_pipe("senna_words", name="words_a")
    nlp.add_pipe("senna_words", name="words_b")
    shared = {
        "features": {
            "word": None,
            "caps": None,
            "shared": {"@misc": "spacy-senna.SharedWords.v1", "upstream": "words_a"},
        }
    }
    nlp.add_pipe("senna_tagger", config={"model": shared})
    assert nlp.get_pipe("words_a").listening_components == ["senna_tagger"]
    assert nlp.get_pipe("words_b").listening_components == []


def test_srl_and_a_chunker_read_the_shared_table(srl_reference_doc, span_examples):
    from .test_srl import make_examples

    nlp = English()
    nlp.add_pipe("senna_words")
    nlp.add_pipe("senna_srl", config={"model": SHARED})
    examples = make_examples(nlp, srl_reference_doc)
    optimizer = nlp.initialize(lambda: examples)
    first = last = None
    for _ in range(30):
        losses = {}
        nlp.update(examples, sgd=optimizer, losses=losses)
        first = first if first is not None else losses["senna_srl"]
        last = losses["senna_srl"]
    assert last < 0.2 * first

    chunks = English()
    chunks.add_pipe("senna_words")
    chunks.add_pipe(
        "senna_chunker",
        config={
            "model": {
                "features": {**SHARED["features"], "pos": {"@misc": "spacy-senna.AttrFeature.v1"}}
            }
        },
    )
    examples = span_examples(chunks)
    for eg in examples:
        copy_inputs(eg, ["tag_"])
    chunks.initialize(lambda: examples)
    assert chunks.get_pipe("senna_words").listening_components == ["senna_chunker"]


def test_the_joint_config_builds_its_shared_pipeline():
    config = load_config(JOINT_CONFIG, overrides={"paths.train": "t", "paths.dev": "d"})
    nlp = spacy.util.load_model_from_config(config, auto_fill=True, validate=True)
    assert nlp.pipe_names == ["senna_words", "senna_tagger", "senna_chunker", "senna_ner"]
    assert nlp.get_pipe("senna_words").listening_components == nlp.pipe_names[1:]
    own = {
        name: set(nlp.get_pipe(name).model.attrs["featurizer"].features)
        for name in nlp.pipe_names[1:]
    }
    # the factories' default word and caps tables are left out: one word table in all
    assert own == {
        "senna_tagger": {"shared", "suffix"},
        "senna_chunker": {"shared", "pos"},
        "senna_ner": {"shared"},
    }


def outputs(nlp, texts):
    docs = list(nlp.pipe(texts))
    return [([t.tag_ for t in d], [(e.start, e.end, e.label_) for e in d.ents]) for d in docs]


def test_replace_listeners_gives_a_component_its_own_copy_of_the_table(
    joint, span_examples, span_sentences
):
    """spaCy's recipe for moving a listening component to another pipeline: after
    nlp.replace_listeners the tagger owns a copy of the table (same outputs, its own
    parameters, saved with it), the ner still shares the original, and both survive
    senna_words' removal and a save/load."""
    texts = [text for text, *_ in span_sentences]
    with make_tempdir() as path:
        joint[0].to_disk(path)
        nlp = spacy.load(path)
    expected = outputs(nlp, texts)
    nlp.replace_listeners("senna_words", "senna_tagger", ["model.features.shared"])
    assert nlp.get_pipe("senna_words").listening_components == ["senna_ner"]
    assert outputs(nlp, texts) == expected
    own = get_net(nlp.get_pipe("senna_tagger").model).emission_net.lookup.words
    table = table_of(nlp)
    assert torch.equal(own.tables[0].weight, table.tables[0].weight)
    assert own.tables[0].weight is not table.tables[0].weight
    # the copy trains with the tagger alone; the shared table does not move
    before = table.tables[0].weight.detach().clone()
    nlp.get_pipe("senna_tagger").update(span_examples(nlp), sgd=nlp.create_optimizer())
    assert torch.equal(table.tables[0].weight, before)
    assert not torch.equal(own.tables[0].weight, before)
    expected = outputs(nlp, texts)

    nlp.replace_listeners("senna_words", "senna_ner", ["model.features.shared"])
    nlp.remove_pipe("senna_words")
    assert outputs(nlp, texts) == expected
    with make_tempdir() as path:
        nlp.to_disk(path)
        loaded = spacy.load(path)
    assert loaded.pipe_names == ["senna_tagger", "senna_ner"]
    assert outputs(loaded, texts) == expected


def test_a_word_table_in_a_components_features_trains_as_its_own(span_examples):
    """The config replace_listeners writes, used from the start: the tagger builds and
    trains a private word table (vectors, caps, characters) with no senna_words."""
    own = {
        "features": {
            "word": None,
            "caps": None,
            "shared": {
                "@architectures": "spacy-senna.WordTable.v1",
                "features": {
                    "word": {"@misc": "spacy-senna.WordFeature.v1"},
                    "caps": {"@misc": "spacy-senna.CapsFeature.v1"},
                },
            },
        }
    }
    fix_random_seed(0)
    nlp = English()
    nlp.add_pipe("senna_tagger", config={"model": own})
    examples = span_examples(nlp)
    optimizer = nlp.initialize(lambda: examples)
    losses = []
    for _ in range(40):
        step = {}
        nlp.update(examples, sgd=optimizer, losses=step)
        losses.append(step["senna_tagger"])
    assert losses[-1] < 0.05 * losses[0]
    texts = [eg.reference.text for eg in examples]
    with make_tempdir() as path:
        nlp.to_disk(path)
        loaded = spacy.load(path)
    assert outputs(loaded, texts) == outputs(nlp, texts)
    assert [t.tag_ for t in nlp(texts[0])] == [t.tag_ for t in examples[0].reference]
