"""Reading and writing `.spacy` (DocBin) files for the commands, with errors naming the file."""

from __future__ import annotations

from pathlib import Path

from spacy.tokens import Doc, DocBin
from spacy.vocab import Vocab

from ..io.docbin_decoding import get_docs
from ..io.files import atomic_output, require_file
from .errors import CliError


def read_docs(path: Path, vocab: Vocab) -> list[Doc]:
    """All Docs of the `.spacy` file `path` (user data included).

    A file that does not decode as a DocBin raises CliError naming it.
    """
    require_file(path)
    data = path.read_bytes()
    try:
        return list(get_docs(DocBin(store_user_data=True).from_bytes(data), vocab))
    except Exception as err:  # any failure to decode these bytes means a corrupt file
        raise CliError(path, "not a .spacy (DocBin) file, or a truncated or corrupt one") from err


def write_doc_bin(doc_bin: DocBin, path: Path) -> None:
    """Write `doc_bin` to `path` atomically: a failed write leaves no partial file."""
    with atomic_output(path) as tmp:
        doc_bin.to_disk(tmp)
