"""`njit` for the package's compiled loops (the LSTM recurrence, the Viterbi, the
forward-backward, the chunk bounds), with the width of their vectors chosen first.

LLVM tunes recent Intel CPUs to prefer 256-bit vectors even where they have AVX-512
(`prefer-256-bit`), a guard against the clock drop older AVX-512 CPUs took on wide
vectors, and Numba has no setting per function. On a CPU with AMX (Sapphire Rapids and
later), which runs 512-bit vectors without that drop, the compiled loops take 512-bit
vectors instead: the recurrence 20% faster a row and step, one text at a time 2-5%, the
numbers bit for bit the same. The setting is Numba's for the whole process (its CPU
features, as `NUMBA_CPU_FEATURES` sets them), so it is made only when nothing chose it:
not where `NUMBA_CPU_NAME` or `NUMBA_CPU_FEATURES` is set, nor with
`SPACY_SENNA_WIDE_VECTORS=0`. It must come before Numba sets up its CPU target, which the
first cached function's decoration does, so every module with compiled loops takes `njit`
from here; a process where other code used Numba first keeps Numba's choice.
"""

from __future__ import annotations

import os

from numba import njit

__all__ = ["njit", "prefer_wide_vectors"]

#: the environment variable that turns the wide vectors off ("0")
OPT_OUT = "SPACY_SENNA_WIDE_VECTORS"


def prefer_wide_vectors() -> bool:
    """Let Numba compile to 512-bit vectors on a CPU with AMX, unless the user chose the
    CPU features (or opted out); whether the setting was made."""
    if os.environ.get(OPT_OUT, "1") == "0":
        return False
    from numba.core import config

    if config.CPU_NAME is not None or config.CPU_FEATURES is not None:
        return False
    import llvmlite.binding as llvm

    try:
        features = llvm.get_host_cpu_features()
    except RuntimeError:  # a platform LLVM cannot read the features of
        return False
    if not (features.get("amx-tile") and features.get("avx512f")):
        return False
    config.CPU_FEATURES = features.flatten() + ",-prefer-256-bit"
    return True


prefer_wide_vectors()
