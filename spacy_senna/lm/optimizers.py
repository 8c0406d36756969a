"""The optimisers of a pretraining run.

A batch of windows is one step on the *summed* hinge loss, so the learning rate keeps
the paper's per-example meaning. With `sgd` each layer's rate is divided by its fan-in
(paper Remark 7: lookup tables 1, first linear layer 605, output layer 100); `adagrad`
and `adam` use one rate for all parameters. Word embeddings have sparse gradients with
every optimiser (`SparseAdam` for them with `adam`).
"""

import torch

from .ranking_model import RankingLM
from .settings import PretrainConfig


def make_optimizers(model: RankingLM, config: PretrainConfig) -> list[torch.optim.Optimizer]:
    """The optimisers that together update every parameter of `model`."""
    lr = config.learning_rate
    if config.optimizer == "sgd":
        groups = [
            {"params": [model.word.weight, model.caps.weight], "lr": lr},
            {
                "params": list(model.hidden.parameters()),
                "lr": lr / model.hidden.in_features,
            },
            {
                "params": list(model.output.parameters()),
                "lr": lr / model.output.in_features,
            },
        ]
        return [torch.optim.SGD(groups, lr=lr)]
    if config.optimizer == "adagrad":
        return [torch.optim.Adagrad(model.parameters(), lr=lr)]
    dense = [p for name, p in model.named_parameters() if name != "word.weight"]
    return [
        torch.optim.SparseAdam([model.word.weight], lr=lr),
        torch.optim.Adam(dense, lr=lr),
    ]
