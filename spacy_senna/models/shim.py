"""The PyTorch shim of every senna model: Thinc's, with two fixes and a checksum.

1. Parameter averages. Thinc's optimizer keys a PyTorch parameter as `(shim.id, name)`,
   but `PyTorchShim.use_params` only looks for `"pytorch_<id>_<name>"` keys, so with
   `[training.optimizer] use_averages = true` spaCy would evaluate and save `model-best`
   with the raw weights while the averages were silently ignored. Here the averaged
   values are swapped in for the duration of the context and the raw ones restored after.
2. Memory. `PyTorchShim.finish_update` replaces each parameter's storage with a tensor
   wrapped (through DLPack) around the optimizer's output, which wraps the previous
   storage: with Adam, resident memory grew by ~1 MB per update (a 10k-step WSJ run was
   killed at 21 GB). Here the optimizer updates NumPy views of the parameters and
   gradients, and the result is copied back into the same storage when it is a new array.
   On a GPU the same is done with CuPy views (Thinc's path there also leaked, and broke
   the cuDNN LSTM's flattened weights).
3. A checksum. The saved weights carry their CRC-32, checked when they are read, so
   damaged weights fail to load instead of changing the output. Weights saved without
   one (pipelines saved before it) load unchecked.
4. Versions. An update through the NumPy view leaves the parameter's version counter
   where it was, so each updated parameter's version is moved: what is computed once per
   set of weights at inference (bfloat16 copies, the compiled LSTM's and CRF's layouts,
   kept character encodings) is made again after every update, as after any in-place
   change made by torch.
"""

import contextlib
import zlib
from typing import Dict, Iterator

import srsly
import torch
from thinc.api import Optimizer, PyTorchShim, get_torch_default_device
from thinc.util import get_array_module, torch2xp, xp2torch
from torch.autograd.graph import increment_version


class SennaPyTorchShim(PyTorchShim):
    def to_bytes(self) -> bytes:
        state = self._serialize_model(self._model)
        return srsly.msgpack_dumps({"config": self.cfg, "state": state, "crc32": zlib.crc32(state)})

    def from_bytes(self, bytes_data: bytes) -> "SennaPyTorchShim":
        msg = srsly.msgpack_loads(bytes_data)
        if "crc32" in msg and zlib.crc32(msg["state"]) != msg["crc32"]:
            raise ValueError("the weights do not match their CRC-32 checksum")
        device = get_torch_default_device()
        self.cfg = msg["config"]
        self._model = self._deserialize_model(self._model, msg["state"], device)
        self._grad_scaler.to_(device)
        return self

    def finish_update(self, optimizer: Optimizer) -> None:
        with torch.no_grad():
            for name, param in self._model.named_parameters():
                if param.grad is None:
                    continue
                weights = torch2xp(param.data)  # a view: NumPy on the CPU, CuPy on a GPU
                xp = get_array_module(weights)
                updated, _ = optimizer((self.id, name), weights, torch2xp(param.grad))
                if not xp.shares_memory(updated, weights):
                    param.data.copy_(xp2torch(xp.ascontiguousarray(updated), device=param.device))
                increment_version(param)
                param.grad.zero_()

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
