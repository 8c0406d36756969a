"""`train-cycles`: a first training, then learning-rate cycles each resuming a stage."""

import shlex
import sys
from pathlib import Path

import pytest

from spacy_senna.cli import main
from spacy_senna.training.cycles import Cycle, average_command, parse_cycle, stage_commands


def test_train_cycles_writes_each_cycle_from_the_stage_before(tmp_path):
    """A recipe's stages: the first training shortened to `--first`, each cycle resuming the
    stage before it (or the stage `after` names) with its options; a bad cycle is refused
    with the form to write."""
    cycles = [
        parse_cycle("3000:0.001"),
        parse_cycle("1500:0.0005:averages:warmup=200:explore=0.5:stop=1000:from=best"),
    ]
    assert cycles[1] == Cycle(1500, 0.0005, True, 200, 0.5, 1000, "model-best")
    stages = stage_commands(Path("parser.cfg"), tmp_path, 3000, cycles, ["--paths.train", "t"])
    first, (write_1, train_1), (write_2, train_2) = stages
    assert first[0][4:7] == ["parser.cfg", "-o", str(tmp_path / "cycle-0")]
    assert first[0][-2:] == ["--paths.train", "t"]
    assert first[0][first[0].index("--training.max_steps") + 1] == "3000"
    assert write_1[1:3] == ["-m", "spacy_senna"]
    assert write_1[3:] == [
        "resume-config",
        str(tmp_path / "cycle-0" / "model-last"),
        str(tmp_path / "cycle-1.cfg"),
        "--steps",
        "3000",
        "--rate",
        "0.001",
    ]
    assert "--training.optimizer.use_averages" not in train_1
    assert write_2[4] == str(tmp_path / "cycle-1" / "model-best")
    assert write_2[-2:] == ["--setting", "senna_parser.explore=0.5"]
    assert train_2[4:7] == [str(tmp_path / "cycle-2.cfg"), "-o", str(tmp_path / "cycle-2")]
    options = dict(zip(train_2[7::2], train_2[8::2]))
    assert options == {
        "--training.optimizer.use_averages": "true",
        "--training.optimizer.learn_rate.warmup_steps": "200",
        "--training.max_steps": "1000",
    }
    sibling = parse_cycle("1500:0.0002:from=best:after=1")
    *_, (write_3, _) = stage_commands(Path("parser.cfg"), tmp_path, 3000, [*cycles, sibling], [])
    assert write_3[4:6] == [str(tmp_path / "cycle-1" / "model-best"), str(tmp_path / "cycle-3.cfg")]
    with pytest.raises(ValueError, match="after=3"):
        stage_commands(
            Path("parser.cfg"), tmp_path, 3000, [*cycles, parse_cycle("1500:0.0002:after=3")], []
        )
    for bad in ("1500", "1500:fast", "1500:0.001:twice", "0:0.001", "1500:0.001:after=x"):
        with pytest.raises(ValueError, match="--cycle"):
            parse_cycle(bad)


def test_average_command_names_two_stages_that_exist(tmp_path):
    command = average_command(tmp_path, [1, 2], 2)
    assert command[3:] == [
        "average-weights",
        str(tmp_path / "averaged"),
        str(tmp_path / "cycle-1" / "model-best"),
        str(tmp_path / "cycle-2" / "model-best"),
    ]
    for stages in ([1], [1, 3]):
        with pytest.raises(ValueError, match="--average"):
            average_command(tmp_path, stages, 2)


def test_train_cycles_dry_run_prints_every_stage_and_runs_none(tmp_path, capsys):
    config = tmp_path / "tagger.cfg"
    config.write_text("[nlp]\n", encoding="utf8")
    output = tmp_path / "recipe"
    main(
        ["train-cycles", str(config), str(output), "--first", "100", "--cycle", "50:0.001"]
        + ["--cycle", "50:0.0005", "--average", "1,2", "--dry-run", "--", "--paths.train", "t"]
    )
    lines = [shlex.split(line) for line in capsys.readouterr().out.splitlines()]
    assert [line[:4] for line in lines] == [
        [sys.executable, "-m", "spacy", "train"],
        [sys.executable, "-m", "spacy_senna", "resume-config"],
        [sys.executable, "-m", "spacy", "train"],
        [sys.executable, "-m", "spacy_senna", "resume-config"],
        [sys.executable, "-m", "spacy", "train"],
        [sys.executable, "-m", "spacy_senna", "average-weights"],
    ]
    assert lines[0][-2:] == ["--paths.train", "t"]
    assert not output.exists()


@pytest.mark.parametrize(
    "args, message",
    [
        (["--first", "1"], "--first must be 2 steps or more"),
        (["--first", "10", "--cycle", "10"], "--cycle 10: write STEPS:RATE"),
        (["--first", "10", "--cycle", "10:0.1", "--average", "0,x"], "--average 0,x"),
    ],
)
def test_train_cycles_refuses_bad_arguments(tmp_path, capsys, args, message):
    config = tmp_path / "tagger.cfg"
    config.write_text("[nlp]\n", encoding="utf8")
    with pytest.raises(SystemExit):
        main(["train-cycles", str(config), str(tmp_path / "out"), *args, "--dry-run"])
    assert message in capsys.readouterr().err


def test_train_cycles_names_a_missing_config(tmp_path, capsys):
    with pytest.raises(SystemExit):
        main(["train-cycles", str(tmp_path / "nope.cfg"), str(tmp_path), "--first", "10"])
    assert f"{tmp_path / 'nope.cfg'}: does not exist" in capsys.readouterr().err
