"""senna_tagger: what a spaCy user relies on (training, save/load, pipe, bad input)."""

import subprocess
import sys
from pathlib import Path

import numpy
import pytest
import spacy
from spacy.attrs import TAG
from spacy.lang.en import English
from spacy.tokens import Doc, DocBin
from spacy.training import Example
from spacy.util import make_tempdir

import spacy_senna  # noqa: F401

ROOT = Path(__file__).resolve().parents[2]


def trained_nlp(tagger_examples, steps=40, **cfg):
    nlp = English()
    nlp.add_pipe("senna_tagger", config=cfg)
    examples = tagger_examples(nlp)
    optimizer = nlp.initialize(lambda: examples)
    history = []
    for _ in range(steps):
        losses = {}
        nlp.update(examples, sgd=optimizer, losses=losses)
        history.append(losses["senna_tagger"])
    return nlp, history


def tags_of(doc):
    return [t.tag_ for t in doc]


@pytest.fixture(scope="module")
def nlp_and_losses(tagger_examples):
    return trained_nlp(tagger_examples)


def test_overfits_two_sentences(nlp_and_losses, tagged_sentences):
    nlp, losses = nlp_and_losses
    assert losses[-1] < losses[0] * 0.01
    for text, tags in tagged_sentences:
        assert tags_of(nlp(text)) == tags


def test_wll_criterion_also_trains(tagger_examples, tagged_sentences):
    nlp, losses = trained_nlp(tagger_examples, model={"criterion": "wll"})
    assert losses[-1] < losses[0] * 0.05
    assert tags_of(nlp("I like green eggs")) == tagged_sentences[0][1]


def test_save_load_gives_identical_output(nlp_and_losses):
    nlp, _ = nlp_and_losses
    texts = ["I like blue eggs", "Eat green ham now", "Zyxx qwerty"]
    expected = [tags_of(d) for d in nlp.pipe(texts)]
    with make_tempdir() as d:
        nlp.to_disk(d)
        loaded = spacy.load(d)
    assert [tags_of(d) for d in loaded.pipe(texts)] == expected
    from_bytes = English()
    from_bytes.add_pipe("senna_tagger")
    from_bytes.from_bytes(nlp.to_bytes())
    assert [tags_of(d) for d in from_bytes.pipe(texts)] == expected
    emissions = nlp.get_pipe("senna_tagger").model.predict([nlp.make_doc(texts[0])])[0]
    loaded_em = loaded.get_pipe("senna_tagger").model.predict([loaded.make_doc(texts[0])])[0]
    assert numpy.array_equal(emissions.cpu().numpy(), loaded_em.cpu().numpy())


def test_serialization_before_initialize():
    nlp = English()
    nlp.add_pipe("senna_tagger")
    with make_tempdir() as d:
        nlp.to_disk(d)
        loaded = spacy.load(d)
    assert loaded.pipe_names == ["senna_tagger"]
    blank = English()
    blank.add_pipe("senna_tagger")
    blank.from_bytes(nlp.to_bytes())


PIPE_TEXTS = ["I like green eggs", "", "Eat", "blue ham " * 30, "I eat eggs and ham"]


def test_pipe_equals_call_and_is_batch_independent(nlp_and_losses):
    nlp, _ = nlp_and_losses
    single = [tags_of(nlp(t)) for t in PIPE_TEXTS]
    for batch_size in (1, 2, 64):
        assert [tags_of(d) for d in nlp.pipe(PIPE_TEXTS, batch_size=batch_size)] == single


@pytest.mark.forks
def test_pipe_with_two_processes_equals_call(nlp_and_losses):
    nlp, _ = nlp_and_losses
    single = [tags_of(nlp(t)) for t in PIPE_TEXTS]
    assert [tags_of(d) for d in nlp.pipe(PIPE_TEXTS, batch_size=2, n_process=2)] == single


def test_sentences_are_tagged_like_separate_docs(nlp_and_losses, tagged_sentences):
    nlp, _ = nlp_and_losses
    doc = nlp.make_doc("I like green eggs Eat blue ham")
    for token in doc:
        token.is_sent_start = token.i in (0, 4)
    assert tags_of(nlp(doc)) == tagged_sentences[0][1] + tagged_sentences[1][1]


def test_not_initialized_gives_clear_error():
    nlp = English()
    nlp.add_pipe("senna_tagger")
    with pytest.raises(ValueError, match="not initialized"):
        nlp("hello world")


def test_empty_and_whitespace_and_unseen_words(nlp_and_losses):
    nlp, _ = nlp_and_losses
    assert tags_of(nlp("")) == []
    doc = Doc(nlp.vocab, words=["I", " ", "like", "\n", "Qzxv"], spaces=[True] * 5)
    doc = nlp(doc)
    assert all(tags_of(doc))


def test_tags_written_in_a_memory_zone_stay_readable_after_it(nlp_and_losses):
    nlp, _ = nlp_and_losses
    tagger = nlp.get_pipe("senna_tagger")
    tagger._hashes = ((), tagger._hashes[1][:0])  # the tags' hashes made again in the zone
    with nlp.memory_zone():
        tags = tags_of(nlp("I like green eggs"))
    assert tags_of(nlp("I like green eggs")) == tags
    assert [nlp.vocab.strings[h] for h in tagger._tag_hashes().tolist()][-1] == "_SP"


def test_a_doc_without_tokens_costs_no_network_call(nlp_and_losses, network_calls):
    nlp, _ = nlp_and_losses
    calls = network_calls(nlp.get_pipe("senna_tagger").model)
    tagged = [tags_of(doc) for doc in nlp.pipe(["", "", "Eat blue ham"])]
    assert tagged == [[], [], ["VB", "JJ", "NN"]]
    assert tags_of(nlp("")) == []
    assert calls == [1]  # the one doc with words, in one call


def test_very_long_sentence(nlp_and_losses):
    nlp, _ = nlp_and_losses
    words = ["I", "like", "green", "eggs", "."] * 1000
    doc = nlp(Doc(nlp.vocab, words=words))
    labels = set(nlp.get_pipe("senna_tagger").labels)
    assert len(doc) == 5000 and all(tag in labels for tag in tags_of(doc))
    batch = [
        Doc(nlp.vocab, words=["Eat"]),
        Doc(nlp.vocab, words=words),
        Doc(nlp.vocab, words=["ham"]),
    ]
    assert tags_of(list(nlp.pipe(batch))[1]) == tags_of(doc)


def test_overwrite_is_honoured(nlp_and_losses):
    nlp, _ = nlp_and_losses
    doc = nlp.make_doc("I like green eggs")
    doc[0].tag_ = "XX"
    assert tags_of(nlp.get_pipe("senna_tagger")(doc))[0] == "XX"
    nlp.get_pipe("senna_tagger").cfg["overwrite"] = True
    try:
        assert tags_of(nlp.get_pipe("senna_tagger")(doc))[0] == "PRP"
    finally:
        nlp.get_pipe("senna_tagger").cfg["overwrite"] = False


def test_missing_gold_tags_are_marginalised():
    nlp = English()
    nlp.add_pipe("senna_tagger")
    full = Example.from_dict(
        nlp.make_doc("I like green eggs"), {"tags": ["PRP", "VBP", "JJ", "NNS"]}
    )
    partial = Example.from_dict(nlp.make_doc("Eat blue ham"), {"tags": ["VB", "", "NN"]})
    optimizer = nlp.initialize(lambda: [full, partial])
    for _ in range(30):
        nlp.update([full, partial], sgd=optimizer)
    assert tags_of(nlp("Eat blue ham"))[0] == "VB"
    assert tags_of(nlp("Eat blue ham"))[2] == "NN"


def test_unknown_gold_label_warns_and_is_ignored(nlp_and_losses):
    nlp, _ = nlp_and_losses
    eg = Example.from_dict(nlp.make_doc("I like eggs"), {"tags": ["PRP", "NEWTAG", "NNS"]})
    with pytest.warns(UserWarning, match="NEWTAG"):
        nlp.update([eg])


def test_saved_by_another_model_format_fails_clearly(nlp_and_losses):
    nlp, _ = nlp_and_losses
    tagger = nlp.get_pipe("senna_tagger")
    tagger.model.attrs["format"] = 999
    try:
        data = nlp.to_bytes()
    finally:
        tagger.model.attrs["format"] = 1
    fresh = English()
    fresh.add_pipe("senna_tagger")
    with pytest.raises(ValueError, match="model format 999"):
        fresh.from_bytes(data)


@pytest.mark.slow
def test_spacy_train_cli_uses_entry_points(tmp_path, tagged_sentences):
    nlp = English()
    db = DocBin()
    for text, tags in tagged_sentences * 5:
        doc = nlp.make_doc(text)
        for token, tag in zip(doc, tags):
            token.tag_ = tag
        db.add(doc)
    db.to_disk(tmp_path / "train.spacy")
    out = tmp_path / "out"
    cmd = [
        sys.executable,
        "-m",
        "spacy",
        "train",
        str(ROOT / "configs" / "pos.cfg"),
        "--paths.train",
        str(tmp_path / "train.spacy"),
        "--paths.dev",
        str(tmp_path / "train.spacy"),
        "--training.max_steps",
        "30",
        "--training.eval_frequency",
        "10",
        "--output",
        str(out),
    ]
    subprocess.run(cmd, check=True, capture_output=True, cwd=tmp_path)
    loaded = spacy.load(out / "model-last")
    doc = loaded("I like green eggs")
    assert all(t.tag_ for t in doc) and doc.to_array([TAG]).shape[0] == 4
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "spacy",
            "evaluate",
            str(out / "model-last"),
            str(tmp_path / "train.spacy"),
        ],
        check=True,
        capture_output=True,
        text=True,
        cwd=tmp_path,
    )
    assert "TAG" in result.stdout
