"""Inputs -> shards: each input file, or each `shard_bytes` piece of a large one, is a shard.

A shard is a byte range of one file. Cuts fall after a record separator (a newline, or a
blank line for paragraph docs) when one is near the nominal cut; text without one is cut
after whitespace, and text without whitespace before a UTF-8 character, so a shard never
splits a character. JSONL files are cut at newlines only (a record is never split).
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO, Dict, Iterable, List, Optional, Tuple

STDIN = "-"
GZIP_HINT = "decompress it first, e.g. zcat FILE.gz | python -m spacy_senna annotate PIPELINE -"
_WHITESPACE = re.compile(rb"[ \t\r\n\f\v]")
# how far past a nominal cut to look for a separator or whitespace (bytes)
SEARCH_WINDOW = 1 << 20
MIN_SHARD_BYTES = 16


@dataclass(frozen=True)
class Shard:
    """Bytes `start:end` of `path`, annotated into the output named `name`."""

    source: str  # the input as the user named it (for messages)
    path: str
    kind: str  # "text" or "jsonl"
    start: int
    end: int
    index: int  # position of this shard within its file
    name: str  # output name without the format's extension, e.g. "news/a.txt.00003"


@dataclass(frozen=True)
class InputFile:
    """One file to annotate and the stem its output names start with."""

    source: str
    path: Path
    stem: str
    kind: str


@dataclass(frozen=True)
class Plan:
    """The shards to annotate and the inputs that could not be read (source, message)."""

    shards: List[Shard]
    errors: List[Tuple[str, str]]


def input_kind(path: Path, input_format: str) -> str:
    """ "jsonl" or "text": `input_format` unless "auto", then by the file's suffix."""
    if input_format != "auto":
        return input_format
    return "jsonl" if path.suffix.lower() == ".jsonl" else "text"


def list_inputs(
    inputs: Iterable[str],
    input_format: str = "auto",
    exclude: Optional[Path] = None,
    stdin_path: Optional[Path] = None,
) -> List[InputFile]:
    """The files named by `inputs` (files, directories walked recursively, "-" for stdin).

    Hidden files and the `exclude` directory (the output directory) are skipped; an
    `exclude` that is an input directory or its parent is refused (ValueError). Stdin
    must have been saved to `stdin_path` first. Raises FileNotFoundError for a missing
    input, ValueError for a directory without files to annotate and when two inputs
    would write the same output names.
    """
    files: List[InputFile] = []
    for item in inputs:
        if item == STDIN:
            if stdin_path is None:
                raise ValueError("stdin ('-') given but not saved")
            kind = "text" if input_format == "auto" else input_format
            files.append(InputFile("<stdin>", stdin_path, "stdin", kind))
            continue
        path = Path(os.path.abspath(item))  # absolute: workers may run elsewhere
        if path.is_dir():
            _check_outputs_outside(item, path, exclude)
            root_name = path.name or "root"
            found = _walk(path, exclude)
            if not found:
                raise ValueError(
                    f"{item}: no files to annotate in this directory (hidden files and the "
                    "--output directory are skipped)"
                )
            for file in found:
                relative = file.relative_to(path)
                stem = (Path(root_name) / relative).as_posix()
                source = str(Path(item) / relative)
                files.append(InputFile(source, file, stem, input_kind(file, input_format)))
        elif path.exists() or path.is_symlink():
            files.append(InputFile(item, path, path.name, input_kind(path, input_format)))
        else:
            raise FileNotFoundError(f"Input not found: {item}")
    _check_unique_stems(files)
    return files


def _check_outputs_outside(item: str, directory: Path, output_dir: Optional[Path]) -> None:
    """Refuse an output directory that is the input directory or its parent: the outputs
    of DIR go to OUTPUT/DIR's name/..., inside DIR, where a later run would read them."""
    if output_dir is None:
        return
    output = output_dir.resolve()
    if output in (directory.resolve(), directory.resolve().parent):
        raise ValueError(
            f"{item}: --output {output_dir} would write the outputs inside this input "
            "directory, where the next run would read them as input; choose an --output "
            "outside it (a folder inside it is fine: it is skipped)"
        )


def _walk(directory: Path, exclude: Optional[Path]) -> List[Path]:
    excluded = exclude.resolve() if exclude is not None else None
    found = []
    for root, dirs, names in os.walk(directory):
        root_path = Path(root)
        dirs[:] = sorted(
            d for d in dirs if not d.startswith(".") and (root_path / d).resolve() != excluded
        )
        found += [root_path / n for n in sorted(names) if not n.startswith(".")]
    return found


def _check_unique_stems(files: List[InputFile]) -> None:
    seen: Dict[str, str] = {}
    for file in files:
        if file.stem in seen:
            raise ValueError(
                f"Inputs {seen[file.stem]} and {file.source} would both write outputs named "
                f"{file.stem}.*; annotate them into separate --output directories"
            )
        seen[file.stem] = file.source


def plan_shards(files: Iterable[InputFile], shard_bytes: int, doc_unit: str = "line") -> Plan:
    """Cut every file into shards of about `shard_bytes`; unreadable files become errors."""
    if shard_bytes < MIN_SHARD_BYTES:
        raise ValueError(f"shard size must be at least {MIN_SHARD_BYTES} bytes, got {shard_bytes}")
    shards: List[Shard] = []
    errors: List[Tuple[str, str]] = []
    for file in files:
        if file.path.suffix.lower() == ".gz":
            errors.append((file.source, f"{file.source} is gzip-compressed: {GZIP_HINT}"))
            continue
        try:
            cuts = file_cuts(
                file.path, shard_bytes, separator_for(file.kind, doc_unit), file.kind == "jsonl"
            )
        except OSError as err:
            errors.append((file.source, f"cannot read {file.source}: {err.strerror or err}"))
            continue
        for index, (start, end) in enumerate(zip(cuts, cuts[1:])):
            name = f"{file.stem}.{index:05d}"
            shards.append(Shard(file.source, str(file.path), file.kind, start, end, index, name))
    return Plan(shards, errors)


def separator_for(kind: str, doc_unit: str) -> bytes:
    """The byte sequence after which a shard preferably ends."""
    return b"\n\n" if kind == "text" and doc_unit == "paragraph" else b"\n"


def file_cuts(
    path: Path, shard_bytes: int, separator: bytes = b"\n", whole_lines: bool = False
) -> List[int]:
    """Byte offsets `[0, cut1, ..., size]` of the shards of `path` (one shard if empty).

    whole_lines: never cut inside a line, however long (JSONL records).
    """
    with open(path, "rb") as f:
        size = os.fstat(f.fileno()).st_size
        cuts = [0]
        while size - cuts[-1] > shard_bytes:
            cut = _next_cut(f, cuts[-1], cuts[-1] + shard_bytes, size, separator, whole_lines)
            if cut >= size:
                break
            cuts.append(cut)
        return cuts + [size]


def _next_cut(
    f: BinaryIO, start: int, target: int, size: int, separator: bytes, whole_lines: bool
) -> int:
    f.seek(target)
    window = f.read(min(SEARCH_WINDOW, size - target))
    for sep in dict.fromkeys((separator, b"\n")):
        found = window.find(sep)
        if found >= 0:
            return target + found + len(sep)
    if whole_lines:
        return _next_newline(f, target + len(window), size)
    space = _WHITESPACE.search(window)
    if space:
        return target + space.end()
    return _character_start(f, start, target)


def _character_start(f: BinaryIO, start: int, target: int) -> int:
    """`target`, moved back to the first byte of the UTF-8 character it falls in."""
    low = max(start + 1, target - 3)
    f.seek(low)
    head = f.read(target - low + 1)
    cut = target
    while cut > low and 0x80 <= head[cut - low] < 0xC0:
        cut -= 1
    return cut


def _next_newline(f: BinaryIO, position: int, size: int) -> int:
    f.seek(position)
    while position < size:
        block = f.read(SEARCH_WINDOW)
        found = block.find(b"\n")
        if found >= 0:
            return position + found + 1
        position += len(block)
    return size
