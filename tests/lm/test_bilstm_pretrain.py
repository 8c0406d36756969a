"""`pretrain-bilstm`: a window network's sentence BiLSTM pretrained as a bidirectional LM,
its word table frozen, the pipeline written for `spacy train` to source."""

import os
import re
import signal
import sys
import time
from pathlib import Path

import pytest
import spacy
import torch
from spacy.tokens import Doc, DocBin, Span
from spacy.training.initialize import init_nlp
from spacy.util import load_config
from spacy.vocab import Vocab

from spacy_senna.cli import main
from spacy_senna.commands.signals import signals_stop_cleanly
from spacy_senna.lm import bilstm_pretrain
from spacy_senna.lm.bilstm_pretrain import BiLSTMPretraining, _LanguageModelHead, pretrain_bilstm
from spacy_senna.models.senna_model import get_net

REPOSITORY = Path(__file__).resolve().parents[2]
NAMES = ["Ann", "Bob", "Carla", "Dario"]
PLACES = ["Paris", "Lisbon", "Rome"]
# configs/lang/ner.cfg made small
SMALL = {
    "nlp.lang": "en",
    "components.senna_ner.model.hidden_width": 16,
    "components.senna_ner.model.lstm_width": 8,
    "components.senna_ner.model.features.word.width": 10,
    "components.senna_ner.model.features.chars.width": 6,
    "components.senna_ner.model.inference_dtype": "float32",
}


@pytest.fixture
def paths(tmp_path):
    """A config's overrides (corpus of 8 docs with entities), and a text of 300 lines."""
    vocab = Vocab()
    docs = []
    for i in range(8):
        doc = Doc(vocab, words=[NAMES[i % 4], "lives", "in", PLACES[i % 3], "."])
        doc.ents = [Span(doc, 0, 1, label="PER"), Span(doc, 3, 4, label="LOC")]
        docs.append(doc)
    DocBin(docs=docs).to_disk(tmp_path / "train.spacy")
    lines = [
        f"{NAMES[i % 4]} {['lives', 'works', 'sleeps'][i % 3]} in {PLACES[i % 3]} ."
        for i in range(300)
    ]
    (tmp_path / "text.txt").write_text("\n".join(lines) + "\n", encoding="utf8")
    corpus = str(tmp_path / "train.spacy")
    return {**SMALL, "paths.train": corpus, "paths.dev": corpus}, tmp_path / "text.txt"


def _network(nlp):
    return get_net(nlp.get_pipe("senna_ner").model).emission_net


def test_pretraining_lowers_the_loss_and_trains_all_but_the_word_table(paths, capsys):
    overrides, text = paths
    config = REPOSITORY / "configs" / "lang" / "ner.cfg"
    before = _network(init_nlp(load_config(config, overrides=overrides, interpolate=False)))
    settings = BiLSTMPretraining(steps=120, batch_size=8, negatives=8, report_every=20)
    after = _network(pretrain_bilstm(config, text, settings, overrides))
    losses = [float(x) for x in re.findall(r"loss ([0-9.]+)", capsys.readouterr().out)]
    assert len(losses) == 6 and losses[-1] < 0.8 * losses[0]
    words = after.lookup.tables[0].weight
    assert torch.equal(words, before.lookup.tables[0].weight)
    for name, value in after.lstm.state_dict().items():
        assert not torch.equal(value, before.lstm.state_dict()[name]), name
    assert not torch.equal(after.lookup.tables[1].weight, before.lookup.tables[1].weight)
    # the output layer is not pretrained
    assert torch.equal(after.output.weight, before.output.weight)


def _command_overrides(overrides):
    return [item for key, value in overrides.items() for item in (f"--{key}", str(value))]


def test_command_writes_the_pipeline_and_a_config_that_trains_from_it(paths, tmp_path):
    overrides, text = paths
    config = REPOSITORY / "configs" / "lang" / "ner.cfg"
    output, train_config = tmp_path / "new" / "pretrained", tmp_path / "new" / "ner.cfg"
    main(
        ["pretrain-bilstm", str(config), str(text), str(output), "--steps", "5"]
        + ["--batch-size", "8", "--negatives", "8", "--train-config", str(train_config)]
        + ["--", *_command_overrides(overrides)]
    )
    pretrained = _network(spacy.load(output))
    sourced = _network(init_nlp(load_config(train_config)))
    for name, value in pretrained.state_dict().items():
        assert torch.equal(value, sourced.state_dict()[name]), name


@pytest.mark.parametrize(
    "change, message",
    [
        ({"component": "senna_tagger"}, "no component 'senna_tagger'"),
        ({"steps": None}, "give --steps or --seconds"),
    ],
)
def test_bad_settings_are_named(paths, change, message):
    overrides, text = paths
    settings = BiLSTMPretraining(steps=2, batch_size=8, negatives=8)
    for key, value in change.items():
        setattr(settings, key, value)
    with pytest.raises(ValueError, match=message):
        pretrain_bilstm(REPOSITORY / "configs" / "lang" / "ner.cfg", text, settings, overrides)


def test_a_network_without_bilstm_is_refused(paths):
    overrides, text = paths
    overrides = {**overrides, "components.senna_ner.model.lstm_width": 0}
    with pytest.raises(ValueError, match="no sentence BiLSTM to pretrain"):
        pretrain_bilstm(
            REPOSITORY / "configs" / "lang" / "ner.cfg", text, BiLSTMPretraining(steps=2), overrides
        )


def test_a_text_without_lines_is_refused(paths, tmp_path):
    overrides, _ = paths
    empty = tmp_path / "empty.txt"
    empty.write_text("one two\n\n", encoding="utf8")
    with pytest.raises(ValueError, match="no line of 3 words or more"):
        pretrain_bilstm(
            REPOSITORY / "configs" / "lang" / "ner.cfg",
            empty,
            BiLSTMPretraining(steps=2),
            overrides,
        )


@pytest.mark.parametrize(
    "args, message",
    [
        (["missing.cfg", "text.txt", "--steps", "2"], "missing.cfg: does not exist"),
        (["CONFIG", "missing.txt", "--steps", "2"], "missing.txt"),
        (["CONFIG", "text.txt", "--steps", "0"], "--steps must be positive"),
        (["CONFIG", "text.txt", "--steps", "2", "--dropout", "1"], "--dropout must be in [0, 1)"),
    ],
)
def test_command_names_bad_arguments(paths, tmp_path, capsys, args, message):
    overrides, text = paths
    config = str(REPOSITORY / "configs" / "lang" / "ner.cfg")
    args = [
        config if a == "CONFIG" else str(tmp_path / a) if a.endswith((".cfg", ".txt")) else a
        for a in args
    ]
    with pytest.raises(SystemExit):
        main(
            ["pretrain-bilstm", args[0], args[1], str(tmp_path / "out"), *args[2:]]
            + ["--", *_command_overrides(overrides)]
        )
    assert message in capsys.readouterr().err


def _run_command(paths, tmp_path, steps="5"):
    overrides, text = paths
    config = REPOSITORY / "configs" / "lang" / "ner.cfg"
    output, train_config = tmp_path / "pretrained", tmp_path / "ner.cfg"
    main(
        ["pretrain-bilstm", str(config), str(text), str(output), "--steps", steps]
        + ["--batch-size", "8", "--negatives", "8", "--train-config", str(train_config)]
        + ["--", *_command_overrides(overrides)]
    )
    return output, train_config


def test_the_pipeline_meta_says_how_far_the_pretraining_went(paths, tmp_path):
    output, _ = _run_command(paths, tmp_path)
    done = spacy.load(output).meta["bilstm_pretraining"]
    assert done["steps"] == 5 and done["stopped"] == "limit reached"
    assert done["settings"]["negatives"] == 8 and done["words"] > 0


def test_an_interrupt_writes_what_is_pretrained_and_exits_130(paths, tmp_path, capsys, monkeypatch):
    """Ctrl-C (or SIGTERM, which the command turns into one) at the fourth batch: three
    steps are kept and written, with the config that trains from them, and the exit
    status stops a workflow from going on."""
    loss = _LanguageModelHead.loss
    calls = []

    def interrupted_at_the_fourth(self, *args):
        calls.append(1)
        if len(calls) == 4:
            raise KeyboardInterrupt
        return loss(self, *args)

    monkeypatch.setattr(_LanguageModelHead, "loss", interrupted_at_the_fourth)
    with pytest.raises(SystemExit) as stopped:
        output, train_config = _run_command(paths, tmp_path, steps="50")
    assert stopped.value.code == 130
    assert "interrupted after 3 steps" in capsys.readouterr().err
    done = spacy.load(tmp_path / "pretrained").meta["bilstm_pretraining"]
    assert done["steps"] == 3 and done["stopped"] == "interrupted"
    assert (tmp_path / "ner.cfg").is_file()


def test_an_interrupt_before_the_first_step_writes_nothing(paths, tmp_path, capsys, monkeypatch):
    def interrupted(path):
        raise KeyboardInterrupt

    monkeypatch.setattr(bilstm_pretrain, "read_lines", interrupted)
    with pytest.raises(SystemExit) as stopped:
        _run_command(paths, tmp_path)
    assert stopped.value.code == 130
    assert "before the pretraining began: nothing written" in capsys.readouterr().err
    assert not (tmp_path / "pretrained").exists() and not (tmp_path / "ner.cfg").exists()


def test_sigterm_becomes_an_interrupt_only_inside_the_block():
    before = signal.getsignal(signal.SIGTERM)
    with pytest.raises(KeyboardInterrupt):
        with signals_stop_cleanly():
            os.kill(os.getpid(), signal.SIGTERM)
            time.sleep(1)
    assert signal.getsignal(signal.SIGTERM) is before


def test_a_terminal_gets_a_bar_of_steps_with_the_report_lines_above_it(paths, capsys, monkeypatch):
    overrides, text = paths
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    settings = BiLSTMPretraining(steps=6, batch_size=8, negatives=8, report_every=3)
    pretrain_bilstm(REPOSITORY / "configs" / "lang" / "ner.cfg", text, settings, overrides)
    out, err = capsys.readouterr()
    assert "6/6" in err and "step" in err
    assert re.search(r"(^|\r)step 3 words \d+ loss", err, re.M) and "step 3 words" not in out
