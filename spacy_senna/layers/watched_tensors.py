"""The tensors a result kept at inference was computed from, found through their modules
once and read directly after that: how a cache tells, at every call, that its weights
moved, without walking the modules (nn.Module's attribute lookups cost a lookup's check
10-20 us a call in the pipeline, about 4% of a short text's time).

A tensor's version and address move with every in-place change and with new storage
(`kept_copies.versions`). What moves neither is a module, parameter or buffer put in the
place of another: torch's three registration hooks count those, anywhere in the process
(`_REGISTRATIONS`), and the tensors are found again after any; a tensor written straight
into a module's dict of parameters, which no hook sees, is caught by each read checking
that the dict still holds it."""

from typing import Callable, Iterable, List, Optional, Tuple

from torch import Tensor, nn
from torch.nn.modules import module as torch_module

#: a module and the name of a parameter or buffer it holds
Source = Tuple[nn.Module, str]

#: modules, parameters and buffers registered in this process since it imported this
_REGISTRATIONS = [0]


def _count_registration(*_args) -> None:
    _REGISTRATIONS[0] += 1


torch_module.register_module_module_registration_hook(_count_registration)
torch_module.register_module_parameter_registration_hook(_count_registration)
torch_module.register_module_buffer_registration_hook(_count_registration)


class WatchedTensors:
    """The (version, address) of each of a module's source tensors, found once."""

    def __init__(self) -> None:
        self._found_at = -1
        self._entries: List[Tuple[dict, str, Optional[Tensor]]] = []

    def __reduce__(self):
        return WatchedTensors, ()  # a copy of the module finds its own tensors

    def versions(self, sources: Callable[[], Iterable[Source]]) -> tuple:
        """Each tensor's (version, address), in the order `sources()` names them (None for
        a parameter set to None); `sources` is called again only when a registration
        happened since, or a tensor was replaced in its module's dict."""
        if self._found_at != _REGISTRATIONS[0]:
            self._find(sources)
        moved = _read(self._entries, check=True)
        if moved is None:
            self._find(sources)
            moved = _read(self._entries, check=False)
        return moved

    def _find(self, sources: Callable[[], Iterable[Source]]) -> None:
        found_at = _REGISTRATIONS[0]
        entries = []
        for module, name in sources():
            holder = module._parameters if name in module._parameters else module._buffers
            entries.append((holder, name, holder[name]))
        self._entries, self._found_at = entries, found_at


def _read(entries: List[Tuple[dict, str, Optional[Tensor]]], check: bool) -> Optional[tuple]:
    """The entries' (version, address), or None when `check` finds one replaced."""
    moved = []
    for holder, name, tensor in entries:
        if check and holder.get(name) is not tensor:
            return None
        moved.append(None if tensor is None else (tensor._version, tensor.data_ptr()))
    return tuple(moved)
