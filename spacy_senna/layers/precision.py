"""The precision of a network's largest matrix products at inference.

"float32" (the default) computes everything in float32. "bfloat16" runs the layers a
network passes through `dense` (its window and hidden layers, most of its multiply-adds)
in bfloat16 with float32 accumulation, on a CPU that computes bfloat16 natively
(AVX512-BF16 or AMX); on any other CPU, and on a GPU (an H100 labelled no faster in
bfloat16), they stay in float32. Training always computes in float32, so gradients are
unchanged. The lookup tables, character CNNs, LSTMs and CRF stay in float32 too: an LSTM's
recurrence accumulates the rounding, and they cost less.
"""

from functools import lru_cache
from typing import Optional, Tuple

import torch
from torch import Tensor, nn

from .kept_copies import kept_copy

INFERENCE_DTYPES = ("float32", "bfloat16")


def check_inference_dtype(inference_dtype: str) -> str:
    """`inference_dtype`, or a ValueError naming the ones there are."""
    if inference_dtype not in INFERENCE_DTYPES:
        raise ValueError(
            f"inference_dtype must be one of {INFERENCE_DTYPES}, got {inference_dtype!r}"
        )
    return inference_dtype


@lru_cache(maxsize=None)
def computes_bfloat16(device_type: str) -> bool:
    """Whether `device_type` ("cpu", "cuda") labels in bfloat16 here: only a CPU that
    multiplies it natively (elsewhere it is emulated and slower than float32)."""
    if device_type != "cpu":
        return False
    try:
        return bool(torch.ops.mkldnn._is_mkldnn_bf16_supported())
    except (AttributeError, RuntimeError):
        return False


def dense(layer: nn.Module, x: Tensor, inference_dtype: str, hardtanh: bool = False) -> Tensor:
    """`layer(x)` in float32, or at inference in `inference_dtype` where the device
    computes it natively (the result is float32 either way). `hardtanh` applies HardTanh in
    place, before the result becomes float32: clipping commutes with that conversion, so
    the same numbers from half the memory traffic, and no new tensor."""
    if inference_dtype == "float32" or layer.training or not computes_bfloat16(x.device.type):
        out = layer(x)
        return nn.functional.hardtanh_(out) if hardtanh else out
    if isinstance(layer, nn.Linear):
        out = nn.functional.linear(x.to(torch.bfloat16), *_bfloat16_weights(layer))
    elif _is_plain_conv1d(layer) and x.shape[0] == 1:
        out = _conv1d_as_product(layer, x[0].T).T[None]
    else:
        with torch.autocast(x.device.type, dtype=torch.bfloat16):
            out = layer(x)
    return (nn.functional.hardtanh_(out) if hardtanh else out).float()


def _bfloat16_weights(layer: nn.Module) -> Tuple[Tensor, Optional[Tensor]]:
    """`layer`'s weight (as a (out, in) matrix) and bias in bfloat16, made once per set of
    weights (`kept_copy`): casting them at every call (what autocast does) costs as much
    as a short text's product."""
    if layer.bias is None:
        return kept_copy("bfloat16", lambda w: (_bfloat16_matrix(w), None), layer.weight)
    return kept_copy(
        "bfloat16",
        lambda w, b: (_bfloat16_matrix(w), b.to(torch.bfloat16)),
        layer.weight,
        layer.bias,
    )


def _bfloat16_matrix(weight: Tensor) -> Tensor:
    return weight.reshape(weight.shape[0], -1).to(torch.bfloat16)


def _is_plain_conv1d(layer: nn.Module) -> bool:
    return (
        isinstance(layer, nn.Conv1d)
        and layer.stride == (1,)
        and layer.dilation == (1,)
        and layer.groups == 1
        and layer.padding in ((0,), "valid")
    )


def _conv1d_as_product(conv: nn.Conv1d, rows: Tensor) -> Tensor:
    """`conv` over `rows` (length, channels) in bfloat16 as one matrix product of each
    window's rows laid end to end: oneDNN's bfloat16 convolution costs about 0.3 ms on a
    short text whatever its length, the product a sixth of that, and it stays ahead on
    long batches. *Shape:* ``(L, C)`` -> ``(L - window + 1, out)``"""
    window = conv.kernel_size[0]
    windows = rows.to(torch.bfloat16).unfold(0, window, 1)  # (L', C, window): the weight's order
    return nn.functional.linear(windows.reshape(windows.shape[0], -1), *_bfloat16_weights(conv))
