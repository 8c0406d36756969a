"""Load the pipeline to annotate with: clear errors, sentence splitting, long docs, GPU."""

from __future__ import annotations

from pathlib import Path
from typing import Iterable, Optional, Sequence

import spacy
from spacy.language import Language
from spacy.tokens import Doc
from spacy.vocab import Vocab

from ..pipeline.model_file import DamagedModel

SENTENCES = ("split", "doc")


class WhitespaceTokenizer:
    """Tokens are the whitespace-separated words (SENNA's -usrtokens)."""

    def __init__(self, vocab: Vocab) -> None:
        self.vocab = vocab

    def __call__(self, text: str) -> Doc:
        words = text.split()
        spaces = [True] * len(words)
        if words:
            spaces[-1] = False
        return Doc(self.vocab, words=words, spaces=spaces)

    def pipe(self, texts: Iterable[str], batch_size: int = 1000) -> Iterable[Doc]:
        for text in texts:
            yield self(text)


def is_pipeline(name: str) -> bool:
    """Whether `name` is a pipeline directory (with a config.cfg) or an installed package."""
    path = Path(name)
    if path.exists():
        return path.is_dir() and (path / "config.cfg").is_file()
    return spacy.util.is_package(name)


def check_pipeline(name: str) -> None:
    """Raise a clear error unless `name` is a pipeline directory or an installed package."""
    path = Path(name)
    if path.exists():
        if not path.is_dir() or not (path / "config.cfg").is_file():
            raise ValueError(
                f"{name} is not a spaCy pipeline: expected a directory with a config.cfg "
                "(e.g. training/model-best, or the output of spacy assemble)"
            )
    elif not spacy.util.is_package(name):
        raise FileNotFoundError(
            f"Pipeline not found: {name} is neither a directory nor an installed pipeline package"
        )


def load_pipeline(
    name: str,
    gpu_id: int = -1,
    sentences: str = "split",
    pretokenized: bool = False,
    max_doc_chars: int = 100_000,
    enable: Sequence[str] = (),
) -> Language:
    """`spacy.load(name)` made ready to annotate raw text.

    sentences: "split" adds spaCy's rule-based sentencizer first unless a component
        already sets sentence starts (the senna components label each sentence as one
        sequence); "doc" keeps every doc as one sentence (SENNA's one sentence per line).
    pretokenized: split tokens on whitespace only.
    max_doc_chars: docs up to this length are accepted (spaCy's max_length).
    gpu_id: >= 0 runs on that GPU (spacy.require_gpu).
    enable: components the pipeline keeps disabled to run as well (en_senna's
        senna_parser, SENNA's PSG).
    """
    if sentences not in SENTENCES:
        raise ValueError(f"sentences must be one of {SENTENCES}, got {sentences!r}")
    check_pipeline(name)
    if gpu_id >= 0:
        use_gpu(gpu_id)
    try:
        nlp = spacy.load(name)
    except DamagedModel:  # names the pipeline, the component and the file already
        raise
    except Exception as err:  # config errors, missing factories, corrupt weights, ...
        raise ValueError(f"Could not load pipeline {name}: {type(err).__name__}: {err}") from err
    enable_components(nlp, enable)
    if pretokenized:
        nlp.tokenizer = WhitespaceTokenizer(nlp.vocab)
    if sentences == "split" and not sets_sentences(nlp):
        nlp.add_pipe("senna_sentencizer", name="sentencizer", first=True)
    nlp.max_length = max(nlp.max_length, max_doc_chars + 1)
    return nlp


def enable_components(nlp: Language, names: Sequence[str]) -> None:
    """Run the disabled components `names` too; a clear error for a name the pipeline
    does not have."""
    check_component_names(nlp, names, "--enable")
    for name in names:
        nlp.enable_pipe(name)


def check_component_names(nlp: Language, names: Sequence[str], option: str) -> None:
    """A clear error, naming the command-line `option`, for a name the pipeline lacks."""
    unknown = [name for name in names if name not in nlp.component_names]
    if unknown:
        raise ValueError(
            f"{option} {', '.join(unknown)}: the pipeline has no such component (it has "
            f"{', '.join(nlp.component_names)})"
        )


def use_gpu(gpu_id: int) -> None:
    """spacy.require_gpu(gpu_id), with a clear error when no GPU can be used."""
    try:
        spacy.require_gpu(gpu_id)
    except Exception as err:
        raise ValueError(f"Cannot use GPU {gpu_id}: {err}") from err


def sets_sentences(nlp: Language) -> bool:
    """Whether a component of the pipeline assigns sentence starts."""
    return any("token.is_sent_start" in nlp.get_pipe_meta(name).assigns for name in nlp.pipe_names)


def describe(nlp: Language, name: Optional[str] = None) -> str:
    """`name: a → b → c` for status lines."""
    return f"{name + ': ' if name else ''}{' → '.join(nlp.pipe_names) or '(tokenizer only)'}"
