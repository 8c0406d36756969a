"""Errors the CLI reports as one line, `✘ FILE: PROBLEM`, instead of a traceback."""

from __future__ import annotations

import os
from pathlib import Path
from types import TracebackType


class CliError(Exception):
    """A problem with a command's input or output, reported as `✘ PATH: PROBLEM`."""

    def __init__(self, path: str | os.PathLike, problem: str):
        super().__init__(f"{os.fspath(path)}: {problem}")
        self.path = os.fspath(path)
        self.problem = problem


def check_pipeline_folder(path: Path) -> None:
    """Raise a CliError unless `path` is a saved pipeline's folder (it holds a config.cfg)."""
    if not path.exists():
        raise CliError(path, "does not exist: pass a trained pipeline's folder")
    if not (path / "config.cfg").exists():
        raise CliError(path, "holds no config.cfg: pass a trained pipeline's folder")


def error_line(err: BaseException) -> str | None:
    """The one-line report of a user-facing error, or None for an unexpected one.

    User-facing: CliError; an OSError naming its file (missing, unreadable, not
    writable, disk full, a file where a directory is needed); and a ValueError or
    OSError raised by spacy_senna's own code, whose message states the problem with the
    input (the readers name file and line). A ValueError from inside a library, or
    anything else, is an unexpected error.
    """
    if isinstance(err, CliError):
        text = str(err)
    elif isinstance(err, OSError) and err.filename is not None:
        problem = err.strerror or str(err)
        text = f"{os.fsdecode(err.filename)}: {problem[:1].lower()}{problem[1:]}"
    elif isinstance(err, (ValueError, OSError)) and _raised_by_package(err.__traceback__):
        text = str(err)
    else:
        return None
    return " ".join(text.split())


def _raised_by_package(tb: TracebackType | None) -> bool:
    """Whether the innermost frame of a traceback is in a spacy_senna module."""
    if tb is None:
        return False
    while tb.tb_next is not None:
        tb = tb.tb_next
    return str(tb.tb_frame.f_globals.get("__name__", "")).startswith("spacy_senna.")
