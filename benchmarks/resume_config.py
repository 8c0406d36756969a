"""Write a config that trains a trained pipeline further: a second learning-rate cycle.

    python benchmarks/resume_config.py training/wsj-plus/model-last resume.cfg \
        --steps 4000 --rate 0.0005
    python -m spacy train resume.cfg -o training/wsj-plus-resumed

The config is the pipeline's own, with every component sourced from the pipeline (spaCy
then resumes training them: their weights, labels and dictionaries as trained, a fresh
optimizer) and a new schedule: `--steps` more steps, the learning rate falling linearly
from `--rate` to 0, evaluated every `--eval-frequency` steps. Paths stay as the pipeline's
config has them unless overridden on the `spacy train` command line.
"""

import argparse
from pathlib import Path

from thinc.api import Config


def resume_config(pipeline: Path, steps: int, rate: float, eval_frequency: int) -> Config:
    """The config that trains `pipeline`'s components `steps` more steps from `rate`."""
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("pipeline", type=Path, help="a trained pipeline (model-last)")
    parser.add_argument("output", type=Path, help="the config to write")
    parser.add_argument("--steps", type=int, required=True)
    parser.add_argument("--rate", type=float, required=True, help="the first learning rate")
    parser.add_argument("--eval-frequency", type=int, default=500)
    args = parser.parse_args()
    if not (args.pipeline / "config.cfg").exists():
        parser.error(f"{args.pipeline} holds no config.cfg: pass a trained pipeline's folder")
    if args.steps < 1 or args.rate <= 0:
        parser.error("--steps and --rate must be positive")
    config = resume_config(args.pipeline, args.steps, args.rate, args.eval_frequency)
    config.to_disk(args.output)
    print(f"Wrote {args.output}: {args.steps} steps from {args.rate} on {args.pipeline}")


if __name__ == "__main__":
    main()
