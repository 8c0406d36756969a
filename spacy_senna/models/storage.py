"""The precision that senna components save their weights in.

"float32" (the default) saves the weights as trained. "float16" halves the size on disk
(the bundled pipeline uses it): every float32 tensor of at least `MIN_HALF_SIZE` values
(lookup tables, weight matrices) is stored as float16 and read back into float32, so a
loaded model computes in float32 as before; the small ones (biases, CRF transitions) keep
their precision. A pipeline saved again after loading keeps its storage setting.
"""

from __future__ import annotations

from io import BytesIO
from typing import List

import torch
from spacy.language import Language

STORAGE_DTYPES = ("float32", "float16")
#: tensors with fewer values than this are always stored as float32
MIN_HALF_SIZE = 1024
#: the attribute of a senna Thinc model that holds its storage dtype
STORAGE_ATTR = "storage_dtype"


def state_bytes(net: torch.nn.Module, storage_dtype: str) -> bytes:
    """`net`'s state dict as `torch.save` bytes, large float32 tensors as `storage_dtype`."""
    _check_dtype(storage_dtype)
    state = net.state_dict()
    if storage_dtype == "float16":
        state = {
            name: tensor.half()
            if tensor.dtype == torch.float32 and tensor.numel() >= MIN_HALF_SIZE
            else tensor
            for name, tensor in state.items()
        }
    buffer = BytesIO()
    torch.save(state, buffer)
    return buffer.getvalue()


def set_storage_dtype(nlp: Language, storage_dtype: str) -> List[str]:
    """Save every senna component of `nlp` (disabled ones too) with `storage_dtype` from
    now on; returns the names of the components changed."""
    _check_dtype(storage_dtype)
    changed = []
    for name, component in nlp.components:
        model = getattr(component, "model", None)
        if model is not None and STORAGE_ATTR in model.attrs:
            model.attrs[STORAGE_ATTR] = storage_dtype
            changed.append(name)
    return changed


def _check_dtype(storage_dtype: str) -> None:
    if storage_dtype not in STORAGE_DTYPES:
        raise ValueError(f"storage_dtype must be one of {STORAGE_DTYPES}, got {storage_dtype!r}")
