"""A PyTorch shim whose `use_params` understands Thinc's parameter averages.

Thinc's optimizer keys a PyTorch parameter as `(shim.id, name)`, but
`PyTorchShim.use_params` only looks for `"pytorch_<id>_<name>"` keys, so with
`[training.optimizer] use_averages = true` spaCy would evaluate and save `model-best`
with the raw weights while the averages were silently ignored. This shim swaps the
averaged values in for the duration of the context and restores the raw ones after.
"""

import contextlib
from typing import Dict, Iterator

import torch
from thinc.api import PyTorchShim
from thinc.util import xp2torch


class AveragingPyTorchShim(PyTorchShim):
    @contextlib.contextmanager
    def use_params(self, params: Dict) -> Iterator[None]:
        named = dict(self._model.named_parameters())
        averaged = {name: params[(self.id, name)] for name in named if (self.id, name) in params}
        if not averaged:
            yield
            return
        backup = {name: named[name].detach().clone() for name in averaged}
        with torch.no_grad():
            for name, value in averaged.items():
                named[name].copy_(xp2torch(value, device=named[name].device))
        try:
            yield
        finally:
            with torch.no_grad():
                for name, value in backup.items():
                    named[name].copy_(value)
