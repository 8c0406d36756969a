"""Every option of an annotation run, with the checks that need no pipeline or input."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any, Dict, Optional, Tuple

from .formats import get_format
from .loading import SENTENCES
from .records import DOC_UNITS, ENCODING_ERRORS
from .shards import MIN_SHARD_BYTES

BACKENDS = ("local", "ray")
INPUT_FORMATS = ("auto", "text", "jsonl")
# settings that shape the output files: a resumed run must use the same ones
OUTPUT_SETTINGS = (
    "format",
    "input_format",
    "doc_unit",
    "sentences",
    "pretokenized",
    "shard_bytes",
    "max_doc_chars",
    "encoding_errors",
    "enable",
)


@dataclass(frozen=True)
class AnnotateSettings:
    """How to read, shard, annotate and write (see `python -m spacy_senna annotate -h`)."""

    format: str = "senna"
    input_format: str = "auto"
    doc_unit: str = "line"
    sentences: str = "split"
    pretokenized: bool = False
    shard_bytes: int = 32 * 2**20
    max_doc_chars: int = 100_000
    encoding_errors: str = "strict"
    enable: Tuple[str, ...] = ()  # components the pipeline keeps disabled, to run
    batch_size: Optional[int] = None  # None: the pipeline's nlp.batch_size
    n_process: int = 1
    backend: str = "local"
    address: Optional[str] = None
    gpu_id: int = -1
    overwrite: bool = False
    progress: Optional[bool] = None  # None: a progress bar when stderr is a terminal

    def check(self) -> None:
        """Raise ValueError naming the first invalid option."""
        get_format(self.format)
        _one_of("--input-format", self.input_format, INPUT_FORMATS)
        _one_of("--doc-unit", self.doc_unit, DOC_UNITS)
        _one_of("--sentences", self.sentences, SENTENCES)
        _one_of("--encoding-errors", self.encoding_errors, ENCODING_ERRORS)
        _one_of("--backend", self.backend, BACKENDS)
        if self.shard_bytes < MIN_SHARD_BYTES:
            raise ValueError(f"--shard-size must be at least {MIN_SHARD_BYTES} bytes")
        if self.max_doc_chars < 1:
            raise ValueError("--max-doc-chars must be positive")
        if self.batch_size is not None and self.batch_size < 1:
            raise ValueError("--batch-size must be positive")
        if self.n_process < 1:
            raise ValueError("--n-process must be at least 1")
        if self.address and self.backend != "ray":
            raise ValueError("--address is for --backend ray")

    def output_settings(self) -> Dict[str, Any]:
        """The settings recorded in the output directory's manifest."""
        values = {**asdict(self), "enable": sorted(self.enable)}
        return {key: values[key] for key in OUTPUT_SETTINGS}


def _one_of(option: str, value: str, choices: tuple) -> None:
    if value not in choices:
        raise ValueError(f"{option} must be one of {', '.join(choices)}, got {value!r}")
