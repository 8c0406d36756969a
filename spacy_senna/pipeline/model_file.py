"""Loading a senna component's model: a damaged one is reported in one line.

A truncated or corrupted `model` file (or weights that fail their checksum, see
`spacy_senna.models.shim`) raises `DamagedModel`, naming the pipeline, the component and the
file, instead of an error from deep inside srsly or torch.
"""

from __future__ import annotations

from pathlib import Path
from typing import Iterable, Union

import srsly
from thinc.api import Model

from ..models.senna_model import ModelFormatError


class DamagedModel(ValueError):
    """A component's saved model that cannot be read: truncated, corrupted or altered."""


class ChecksModelFile:
    """Mixin of a TrainablePipe whose `from_disk` and `from_bytes` raise `DamagedModel`."""

    def from_disk(self, path: Union[str, Path], *, exclude: Iterable[str] = tuple()):
        """Load the component from a directory."""
        super().from_disk(path, exclude=[*exclude, "model"])
        if "model" not in exclude:
            path = Path(path)
            data = (path / "model").read_bytes()
            load_model(self.model, data, f"{path.parent}: {path.name}/model")
        return self

    def from_bytes(self, bytes_data: bytes, *, exclude: Iterable[str] = tuple()):
        """Load the component from bytes."""
        super().from_bytes(bytes_data, exclude=[*exclude, "model"])
        if "model" not in exclude:
            data = srsly.msgpack_loads(bytes_data)["model"]
            load_model(self.model, data, f"{self.name}: the model")
        return self


def load_model(model: Model, data: bytes, where: str) -> None:
    """`model.from_bytes(data)`; any failure but a format mismatch raises `DamagedModel`
    naming `where`."""
    try:
        model.from_bytes(data)
    except ModelFormatError:
        raise
    except Exception as err:
        reason = " ".join(str(err).split()) or type(err).__name__
        raise DamagedModel(
            f"{where} is damaged (truncated or corrupted: {reason}); "
            "reinstall or retrain the pipeline"
        ) from err
