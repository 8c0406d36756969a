"""A config that trains a trained pipeline further: a second learning-rate cycle.

    python -m spacy_senna resume-config training/wsj-plus/model-last resume.cfg \
        --steps 4000 --rate 0.0005
    python -m spacy train resume.cfg -o training/wsj-plus-resumed

The config is the pipeline's own, with every component sourced from the pipeline (spaCy
then resumes training them: their weights, labels and dictionaries as trained, a fresh
optimizer) and a new schedule: `--steps` more steps, the learning rate falling linearly
from `--rate` to 0, evaluated every `--eval-frequency` steps. Paths stay as the pipeline's
config has them unless overridden on the `spacy train` command line.

A sourced component keeps the settings of its pipeline's config (a `spacy train` override
of them is ignored): `--setting senna_parser.explore=0.5` copies the pipeline next to the
written config (`<output>.source/`) with that setting changed, and sources the copy.
"""

import shutil
from pathlib import Path
from typing import Dict, Optional

import srsly
from thinc.api import Config


def with_settings(pipeline: Path, settings: Dict[str, str], copy: Path) -> Path:
    """A copy of `pipeline` at `copy` whose config has the component `settings` ("name.key":
    value, the value as a config writes it, e.g. "0.5" or '"bfloat16"')."""
    config = Config().from_disk(pipeline / "config.cfg", interpolate=False)
    for name_key, value in settings.items():
        name, _, key = name_key.partition(".")
        if name not in config["components"] or not key:
            raise ValueError(f"--setting {name_key}: name a component of {pipeline} and a key")
        config["components"][name][key] = srsly.json_loads(value)
    if copy.exists():
        shutil.rmtree(copy)
    shutil.copytree(pipeline, copy)
    config.to_disk(copy / "config.cfg")
    return copy


def resume_config(
    pipeline: Path,
    steps: int,
    rate: float,
    eval_frequency: int,
    settings: Optional[Dict[str, str]] = None,
    output: Optional[Path] = None,
) -> Config:
    """The config that trains `pipeline`'s components `steps` more steps from `rate`
    (with `settings`, from a copy of the pipeline next to `output`)."""
    if settings:
        if output is None:
            raise ValueError("settings need the output path: the copy goes next to it")
        pipeline = with_settings(pipeline, settings, output.with_name(output.name + ".source"))
    config = Config().from_disk(pipeline / "config.cfg", interpolate=False)
    source = str(pipeline.resolve())
    for name in config["nlp"]["pipeline"]:
        config["components"][name] = {"source": source}
    training = config["training"]
    training["max_steps"] = steps
    training["eval_frequency"] = eval_frequency
    training["optimizer"]["learn_rate"] = {
        "@schedules": "warmup_linear.v1",
        "initial_rate": rate,
        "warmup_steps": 0,
        "total_steps": steps,
    }
    return config
