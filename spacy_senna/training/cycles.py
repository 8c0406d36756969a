"""Train a config, then resume it for learning-rate cycles: a recipe in one command.

    python -m spacy_senna train-cycles configs/plus/parser-heads.cfg training/wsj-heads \
        --first 3000 --cycle 1500:0.0005 --cycle 1500:0.0005:averages \
        --cycle 1500:0.0005:averages:warmup=200:explore=1.0 \
        -- --paths.train corpus/wsj-trees/train.mrg.spacy --paths.dev ... --paths.vectors ...

The first stage is `spacy train CONFIG` for `--first` steps (the config's `constant_then.v1`
rate, as every parser config has it, held for the first half, then falling to 0; the
arguments after `--` are its overrides) in OUTPUT/cycle-0. Each `--cycle
STEPS:RATE[:OPTION...]` then resumes the stage before it (`resume-config`: its weights,
a fresh optimizer, the rate falling linearly from RATE to 0 over STEPS) in OUTPUT/cycle-N.
Options: `averages` (parameter averaging), `warmup=N` (the rate rises over the first N
steps), `explore=P` (senna_parser's `explore`), `stop=N` (stop after N of the STEPS, the
schedule unchanged), `from=best` (resume the stage's model-best instead of its
model-last), `after=N` (resume stage N instead of the one before: a sibling cycle); a
setting not given stays as the stage resumed left it. `--average 11,12` ends with
OUTPUT/averaged: those stages' model-best weights averaged (`average-weights`). Each
stage's commands, minutes and dev scores go to OUTPUT/recipe.json; `--dry-run` prints the
commands.
"""

import json
import shlex
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Dict, List, Optional


@dataclass
class Cycle:
    """One resumed learning-rate cycle."""

    steps: int
    rate: float
    averages: bool = False
    warmup: int = 0
    explore: Optional[float] = None
    stop: Optional[int] = None
    source: str = "model-last"
    after: Optional[int] = None


def parse_cycle(text: str) -> Cycle:
    """`STEPS:RATE[:averages][:warmup=N][:explore=P][:stop=N][:from=best][:after=N]`."""
    parts = text.split(":")
    try:
        cycle = Cycle(int(parts[0]), float(parts[1]))
        for option in parts[2:]:
            key, _, value = option.partition("=")
            if key == "averages" and not value:
                cycle.averages = True
            elif key == "warmup":
                cycle.warmup = int(value)
            elif key == "explore":
                cycle.explore = float(value)
            elif key == "stop":
                cycle.stop = int(value)
            elif key == "from" and value in ("best", "last"):
                cycle.source = f"model-{value}"
            elif key == "after":
                cycle.after = int(value)
            else:
                raise ValueError(option)
    except (IndexError, ValueError) as err:
        raise ValueError(
            f"--cycle {text}: write STEPS:RATE[:averages][:warmup=N][:explore=P][:stop=N]"
            f"[:from=best][:after=N] ({err})"
        ) from None
    if cycle.steps < 1 or cycle.rate <= 0 or (cycle.stop is not None and cycle.stop < 1):
        raise ValueError(f"--cycle {text}: steps, rate and stop must be positive")
    return cycle


def stage_commands(
    config: Path, output: Path, first: int, cycles: List[Cycle], overrides: List[str]
) -> List[List[List[str]]]:
    """The commands of each stage: the first training, then each cycle's resume and train."""
    python = sys.executable
    stages = [
        [
            [python, "-m", "spacy", "train", str(config), "-o", str(output / "cycle-0")]
            + ["--training.max_steps", str(first), "--training.eval_frequency", "500"]
            + ["--training.optimizer.learn_rate.steps", str(first // 2)]
            + ["--training.optimizer.learn_rate.schedule.total_steps", str(first // 2)]
            + overrides
        ]
    ]
    for number, cycle in enumerate(cycles, 1):
        after = number - 1 if cycle.after is None else cycle.after
        if not 0 <= after < number:
            raise ValueError(f"--cycle {number}: after={after} names no stage before it")
        source = output / f"cycle-{after}"
        resume = output / f"cycle-{number}.cfg"
        write = [python, "-m", "spacy_senna", "resume-config", str(source / cycle.source)]
        write += [str(resume), "--steps", str(cycle.steps), "--rate", str(cycle.rate)]
        if cycle.explore is not None:
            write += ["--setting", f"senna_parser.explore={cycle.explore}"]
        train = [python, "-m", "spacy", "train", str(resume), "-o", str(output / f"cycle-{number}")]
        if cycle.averages:
            train += ["--training.optimizer.use_averages", "true"]
        if cycle.warmup:
            train += ["--training.optimizer.learn_rate.warmup_steps", str(cycle.warmup)]
        if cycle.stop is not None:
            train += ["--training.max_steps", str(cycle.stop)]
        stages.append([write, train])
    return stages


def _dev_scores(trained: Path) -> Dict[str, float]:
    """The dev scores of a stage's model-best (none for the averaged pipeline: score it)."""
    meta = trained / "model-best" / "meta.json"
    if not meta.exists():
        return {}
    performance = json.loads(meta.read_text(encoding="utf8")).get("performance", {})
    return {key: value for key, value in performance.items() if isinstance(value, float)}


def average_command(output: Path, stages: List[int], n_cycles: int) -> List[str]:
    """The command that averages `stages`' model-best weights into OUTPUT/averaged."""
    if len(stages) < 2 or not all(0 <= n <= n_cycles for n in stages):
        raise ValueError(f"--average: name two or more of stages 0-{n_cycles}, not {stages}")
    command = [sys.executable, "-m", "spacy_senna", "average-weights", str(output / "averaged")]
    return command + [str(output / f"cycle-{n}" / "model-best") for n in stages]


def run_stages(stages: List[List[List[str]]], output: Path, n_cycles: int) -> None:
    """Run each stage's commands in turn, recording commands, minutes and dev scores in
    OUTPUT/recipe.json after each stage; a failing command stops the recipe."""
    output.mkdir(parents=True, exist_ok=True)
    recipe = []
    for number, commands in enumerate(stages):
        start = time.perf_counter()
        for command in commands:
            print(f"[train-cycles] {shlex.join(command)}", flush=True)
            if subprocess.call(command) != 0:
                raise ChildProcessError(
                    f"train-cycles: stage {number} failed: {shlex.join(command)}"
                )
        folder = output / (f"cycle-{number}" if number <= n_cycles else "averaged")
        recipe.append(
            {
                "output": str(folder),
                "commands": [shlex.join(command) for command in commands],
                "minutes": round((time.perf_counter() - start) / 60, 1),
                "dev": _dev_scores(folder),
            }
        )
        (output / "recipe.json").write_text(json.dumps(recipe, indent=2), encoding="utf8")
    print(f"[train-cycles] {len(stages)} stages, {sum(s['minutes'] for s in recipe):.0f} minutes")
