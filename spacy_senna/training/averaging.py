"""Checkpoint averaging: the mean of the weights of trained copies of one pipeline.

    python -m spacy_senna average-weights training/averaged \
        training/cycle-9/model-best training/cycle-10/model-best

The copies must be the same pipeline trained on (for example successive learning-rate
cycles of `resume-config`): the same components, labels and weight shapes. The output
is the first pipeline with every floating-point weight replaced by the mean of the copies'
(the PyTorch networks' tensors and Thinc's own parameters); the rest (vocab, vectors,
settings) is the first pipeline's, its meta without their dev scores (they are not the
average's) and with the pipelines it averaged (`averaged_from`). Averaging the end points
of cycles that continue each other, or of sibling cycles from one model, is the
cross-cycle form of the parameter averaging `use_averages` does within one.
"""

from pathlib import Path
from typing import Dict, List

import spacy
import torch
from spacy.language import Language
from thinc.api import Model


def torch_modules(model: Model) -> List[torch.nn.Module]:
    """The PyTorch networks of a Thinc model, in walk order."""
    return [
        shim._model
        for node in model.walk()
        for shim in node.shims
        if isinstance(getattr(shim, "_model", None), torch.nn.Module)
    ]


def _average_states(states: List[Dict[str, torch.Tensor]], where: str) -> Dict[str, torch.Tensor]:
    averaged = {}
    for key, first in states[0].items():
        values = [state.get(key) for state in states]
        if any(value is None or value.shape != first.shape for value in values):
            raise ValueError(f"{where}: weight {key} differs in shape between the pipelines")
        averaged[key] = (
            torch.stack(values).mean(dim=0).to(first.dtype) if first.is_floating_point() else first
        )
    return averaged


def _average_model(models: List[Model], where: str) -> None:
    """Set the first model's weights to the mean of all of theirs."""
    walks = [list(model.walk()) for model in models]
    if len({len(walk) for walk in walks}) != 1:
        raise ValueError(f"{where}: the pipelines' models have different layers")
    for nodes in zip(*walks):
        first = nodes[0]
        for name in first.param_names:
            if first.has_param(name):
                values = [node.get_param(name) for node in nodes]
                if any(value.shape != values[0].shape for value in values):
                    raise ValueError(f"{where}: parameter {name} differs in shape")
                first.set_param(name, sum(values) / len(values))
    modules = [torch_modules(model) for model in models]
    if len({len(found) for found in modules}) != 1:
        raise ValueError(f"{where}: the pipelines' networks differ")
    for networks in zip(*modules):
        states = [network.state_dict() for network in networks]
        networks[0].load_state_dict(_average_states(states, where))


def average_weights(pipelines: List[Path]) -> Language:
    """The first of `pipelines` with the mean of all of their weights."""
    if len(pipelines) < 2:
        raise ValueError("average_weights: give two or more pipelines")
    nlps = [spacy.load(path) for path in pipelines]
    names = nlps[0].pipe_names
    for path, nlp in zip(pipelines[1:], nlps[1:]):
        if nlp.pipe_names != names:
            raise ValueError(f"{path}: components {nlp.pipe_names}, not {names}")
    for name in names:
        components = [nlp.get_pipe(name) for nlp in nlps]
        labels = [tuple(getattr(component, "labels", ())) for component in components]
        for path, other in zip(pipelines[1:], labels[1:]):
            if other != labels[0]:
                raise ValueError(f"{path}: {name} has other labels than {pipelines[0]}")
        models = [getattr(component, "model", None) for component in components]
        if isinstance(models[0], Model):
            _average_model(models, f"{name}")
    averaged = nlps[0]
    averaged.meta["performance"] = {}
    averaged.meta["averaged_from"] = [str(path) for path in pipelines]
    return averaged
