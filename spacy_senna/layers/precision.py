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
        if _short_float32_windows(layer, x):
            out = _float32_windows_product(layer, x[0].T).T[None]
        else:
            out = layer(x)
        return nn.functional.hardtanh_(out) if hardtanh else out
    if isinstance(layer, nn.Linear):
        return _bfloat16_product(layer, x.to(torch.bfloat16), hardtanh).float()
    if _is_plain_conv1d(layer) and x.shape[0] == 1:
        return _conv1d_as_product(layer, x[0].T, hardtanh).T[None].float()
    with torch.autocast(x.device.type, dtype=torch.bfloat16):
        out = layer(x)
    return (nn.functional.hardtanh_(out) if hardtanh else out).float()


def _bfloat16_weights(layer: nn.Module, packed: bool = False) -> Tuple[Tensor, Optional[Tensor]]:
    """`layer`'s weight (as a (out, in) matrix, `packed` for oneDNN) and bias in bfloat16,
    made once per set of weights (`kept_copy`): casting them at every call (what autocast
    does) costs as much as a short text's product."""
    matrix = _packed if packed else _bfloat16_matrix
    purpose = "bfloat16 packed" if packed else "bfloat16"
    if layer.bias is None:
        return kept_copy(purpose, lambda w: (matrix(w), None), layer.weight)
    return kept_copy(
        purpose, lambda w, b: (matrix(w), b.to(torch.bfloat16)), layer.weight, layer.bias
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


def _short_float32_windows(layer: nn.Module, x: Tensor) -> bool:
    """Whether `layer` at inference is a window layer over one short stretch of rows on
    the CPU (a text labelled alone), which `_float32_windows_product` computes."""
    return (
        x.shape[0] == 1
        and _is_plain_conv1d(layer)
        and not layer.training
        and x.device.type == "cpu"
        and x.dtype == torch.float32
        and x.shape[2] - layer.kernel_size[0] + 1 <= SHORT_WINDOW_POSITIONS
    )


#: the most window positions that `dense` computes in float32 as one matrix product of
#: the windows' rows rather than as PyTorch's convolution, whose CPU path for one short
#: input (unfolded columns, then MKL's product the other way round) costs 1.4-5x the
#: product's on an AMD EPYC (4-10 positions 341-412 us against 65-111, 17 positions 281
#: against 134) and about the same from 60 positions on; the sums run in another order
#: (differences up to 2.5e-6), so a batch's large calls keep the convolution
SHORT_WINDOW_POSITIONS = 64


def _window_rows(conv: nn.Conv1d, rows: Tensor) -> Tensor:
    """Each of `conv`'s windows over `rows` laid end to end, in its weight's order
    (channel, then offset). *Shape:* ``(L, C)`` -> ``(L - window + 1, C * window)``"""
    windows = rows.unfold(0, conv.kernel_size[0], 1)  # (L', C, window)
    return windows.reshape(windows.shape[0], -1)


def _float32_windows_product(conv: nn.Conv1d, rows: Tensor) -> Tensor:
    """`conv` over `rows` (length, channels) in float32 as one matrix product of each
    window's rows laid end to end. *Shape:* ``(L, C)`` -> ``(L - window + 1, out)``"""
    weight = conv.weight.reshape(conv.out_channels, -1)
    return nn.functional.linear(_window_rows(conv, rows), weight, conv.bias)


def _conv1d_as_product(conv: nn.Conv1d, rows: Tensor, hardtanh: bool = False) -> Tensor:
    """`conv` over `rows` (length, channels) in bfloat16 as one matrix product of each
    window's rows laid end to end: oneDNN's bfloat16 convolution costs about 0.3 ms on a
    short text whatever its length, the product a sixth of that, and it stays ahead on
    long batches. *Shape:* ``(L, C)`` -> ``(L - window + 1, out)``"""
    return _bfloat16_product(conv, _window_rows(conv, rows.to(torch.bfloat16)), hardtanh)


def _bfloat16_product(layer: nn.Module, x: Tensor, hardtanh: bool) -> Tensor:
    """`x @ weight.T + bias` (then HardTanh) in bfloat16, `x` (rows, in) in bfloat16.

    Where oneDNN takes weights packed ahead (`packs_bfloat16`), it reads them packed
    once per set of weights: the same numbers, bit for bit, as from the plain layout,
    which it would reorder at every call (1.3-1.7x the time of a short text's product,
    1.2-1.4x a batch's), and HardTanh runs inside the product."""
    if not packs_bfloat16():
        out = nn.functional.linear(x, *_bfloat16_weights(layer))
        return nn.functional.hardtanh_(out) if hardtanh else out
    packed, bias = _bfloat16_weights(layer, packed=True)
    rows = x.reshape(-1, x.shape[-1]).contiguous()
    if hardtanh:
        out = torch.ops.mkldnn._linear_pointwise(rows, packed, bias, "hardtanh", [-1.0, 1.0], "")
    else:
        out = torch.ops.mkldnn._linear_pointwise(rows, packed, bias, "none", [], "")
    return out.reshape(*x.shape[:-1], out.shape[-1])


@lru_cache(maxsize=None)
def packs_bfloat16() -> bool:
    """Whether this torch build runs a bfloat16 product on weights packed for oneDNN
    (`mkldnn._reorder_linear_weight`, `mkldnn._linear_pointwise`) and gets the plain
    product's numbers from it; checked once on a small product."""
    try:
        x = torch.arange(24, dtype=torch.float32).reshape(4, 6).div(7).to(torch.bfloat16)
        weight = torch.arange(18, dtype=torch.float32).reshape(3, 6).div(-5).to(torch.bfloat16)
        bias = torch.ones(3, dtype=torch.bfloat16)
        packed = torch.ops.mkldnn._reorder_linear_weight(weight)
        out = torch.ops.mkldnn._linear_pointwise(x, packed, bias, "none", [], "")
        return bool(torch.equal(out, nn.functional.linear(x, weight, bias)))
    except (AttributeError, RuntimeError):
        return False


def _packed(weight: Tensor) -> Tensor:
    return torch.ops.mkldnn._reorder_linear_weight(_bfloat16_matrix(weight))
