"""Shared test setup: single-threaded torch, the installed-package guard, and the fixtures
that tests in more than one folder use (fixtures of one folder live in its conftest.py).

The tests import `spacy_senna` from wherever it is installed (pytest runs with
`--import-mode=importlib`, so nothing puts the repository on sys.path). With
SPACY_SENNA_TEST_INSTALLED=1 (CI sets it) the run stops at once when `spacy_senna` comes
from inside the repository, e.g. because `python -m pytest` put the current directory first
on sys.path: CI tests the built wheel, not the source tree.

With SPACY_SENNA_TEST_GPU=1 every test runs on the GPU (`spacy.require_gpu()` before any
model is built): the networks, their inputs and the CRF live there. CI has no GPU; run it
on a machine that has one.
"""

import gzip
import importlib.util
import os
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Callable, List

import pytest
import spacy
import torch
from spacy.lang.en import English
from spacy.tokens import Doc, Span
from spacy.training import Example
from spacy.util import fix_random_seed

import spacy_senna
from spacy_senna.cli import main

REPOSITORY = Path(__file__).resolve().parent.parent
ON_GPU = os.environ.get("SPACY_SENNA_TEST_GPU") == "1"

torch.set_num_threads(1)


def pytest_report_header(config: pytest.Config) -> str:
    location = Path(spacy_senna.__file__).parent
    return f"spacy_senna {spacy_senna.__version__} from {location}, {'GPU' if ON_GPU else 'CPU'}"


def pytest_collection_modifyitems(config: pytest.Config, items: List[pytest.Item]) -> None:
    if not ON_GPU:
        return
    # CUDA cannot run in a forked process, and CPU workers score a little differently
    skip = pytest.mark.skip(reason="forked or CPU worker processes (SPACY_SENNA_TEST_GPU=1)")
    for item in items:
        if "forks" in item.keywords:
            item.add_marker(skip)


def pytest_configure(config: pytest.Config) -> None:
    if ON_GPU:
        spacy.require_gpu()
        # cuDNN convolutions in full float32 (TF32 is its default): the thresholds of the
        # overfit tests were set on the CPU
        torch.backends.cudnn.allow_tf32 = False
    if os.environ.get("SPACY_SENNA_TEST_INSTALLED") != "1":
        return
    location = Path(spacy_senna.__file__).resolve()
    if location.is_relative_to(REPOSITORY):
        raise pytest.UsageError(
            f"SPACY_SENNA_TEST_INSTALLED=1 but spacy_senna was imported from {location}, "
            f"inside the repository {REPOSITORY}, not from an installed package. Run the "
            "`pytest` script (or `python -P -m pytest`) in an environment where spacy-senna "
            "is installed from its wheel."
        )


# small made-up files in the benchmark formats: the converters and the convert command

WSJ_POS = "The\tDT\ncat\tNN\nsat\tVBD\n.\t.\n\nIt\tPRP\nran\tVBD\n"
CONLL2000 = (
    "The DT B-NP\ncat NN I-NP\nsat VBD B-VP\non IN B-PP\nmats NNS B-NP\n. . O\n\nGo VB B-VP\n"
)
CONLL2003 = (
    "-DOCSTART- -X- -X- O\n"
    "\n"
    "Ann NNP I-NP I-PER\n"
    "Lee NNP I-NP I-PER\n"
    "Bob NNP I-NP B-PER\n"
    "saw VBD I-VP O\n"
    "New NNP I-NP I-LOC\n"
    "York NNP I-NP I-LOC\n"
    "\n"
    "-DOCSTART- -X- -X- O\n"
    "\n"
    "Hi UH O O\n"
)


def _load_script(path: Path) -> ModuleType:
    """The Python script at `path` (a project's or benchmarks' file, not in a package) as a
    fresh module, importing its sibling scripts as it does when run directly."""
    if str(path.parent) not in sys.path:
        sys.path.append(str(path.parent))
    name = "script_" + "_".join(path.with_suffix("").parts[-3:]).replace("-", "_")
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses look their module up while it loads
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="session")
def load_script() -> Callable[[Path], ModuleType]:
    """`load_script(path)`: the Python script at `path` as a module (see `_load_script`)."""
    return _load_script


def _write_input(path: Path, text: str, gz: bool = False) -> Path:
    data = text.encode("utf8")
    path.write_bytes(gzip.compress(data) if gz else data)
    return path


@pytest.fixture
def write_input():
    """`write_input(path, text, gz=False)`: write `text` as UTF-8 (gzipped if `gz`) to
    `path` and return `path`."""
    return _write_input


@pytest.fixture
def wsj_pos_text() -> str:
    """Two sentences in the WSJ POS format (WORD<tab>TAG)."""
    return WSJ_POS


@pytest.fixture
def conll2000_text() -> str:
    """Two sentences in the CoNLL-2000 chunking format."""
    return CONLL2000


@pytest.fixture
def conll2003_text() -> str:
    """Two documents (-DOCSTART-) in the CoNLL-2003 NER format, with IOB1 tags."""
    return CONLL2003


# SRL: gold frames on a Doc, and the frames a Doc holds (the SRL component, scorer, converter)


def _srl_reference_doc(vocab, words, tags, frames):
    doc = Doc(vocab, words=words, tags=tags)
    doc.spans["srl_predicates"] = [Span(doc, p, p + 1, label="x") for p in frames]
    for p, args in frames.items():
        doc.spans[f"srl:{p}"] = [Span(doc, s, e, label=lab) for lab, s, e in args]
    return doc


def _srl_frames_of(doc):
    return {
        f.predicate.i: sorted((s.label_, s.start, s.end) for s in f.arguments)
        for f in doc._.srl_frames
    }


@pytest.fixture(scope="session")
def srl_reference_doc():
    """`srl_reference_doc(vocab, words, tags, {predicate: [(label, start, end), ...]})`: a
    Doc with POS tags, the predicates in `srl_predicates` and each frame in `srl:<i>`."""
    return _srl_reference_doc


@pytest.fixture(scope="session")
def srl_frames_of():
    """`srl_frames_of(doc)`: {predicate index: sorted [(label, start, end), ...]} of
    `doc._.srl_frames`."""
    return _srl_frames_of


# NER and chunking: (text, POS tags, entities, chunks) of two sentences, as training examples

SPAN_SENTENCES = [
    (
        "John Smith visited Paris today",
        ["NNP", "NNP", "VBD", "NNP", "NN"],
        [(0, 2, "PER"), (3, 4, "LOC")],
        [(0, 2, "NP"), (2, 3, "VP"), (3, 4, "NP"), (4, 5, "NP")],
    ),
    (
        "Mary saw the big house in Berlin",
        ["NNP", "VBD", "DT", "JJ", "NN", "IN", "NNP"],
        [(0, 1, "PER"), (6, 7, "LOC")],
        [(0, 1, "NP"), (1, 2, "VP"), (2, 5, "NP"), (5, 6, "PP"), (6, 7, "NP")],
    ),
]


def _span_examples(nlp):
    examples = []
    for text, tags, ents, chunks in SPAN_SENTENCES:
        doc = nlp.make_doc(text)
        ref = Doc(nlp.vocab, words=[t.text for t in doc], spaces=[bool(t.whitespace_) for t in doc])
        for token, tag in zip(ref, tags):
            token.tag_ = tag
        ref.ents = [
            ref.char_span(ref[s].idx, ref[e - 1].idx + len(ref[e - 1]), lab) for s, e, lab in ents
        ]
        ref.spans["chunks"] = [Span(ref, s, e, label=label) for s, e, label in chunks]
        examples.append(Example(doc, ref))
    return examples


@pytest.fixture(scope="session")
def span_sentences():
    """[(text, POS tags, [(start, end, entity type)], [(start, end, chunk type)])]."""
    return SPAN_SENTENCES


@pytest.fixture(scope="session")
def span_examples():
    """`span_examples(nlp)`: Examples of `span_sentences`, the reference holding the POS
    tags, the entities (doc.ents) and the chunks (doc.spans["chunks"])."""
    return _span_examples


# POS tagging: two tagged sentences, as training examples

TAGGED_SENTENCES = [
    ("I like green eggs", ["PRP", "VBP", "JJ", "NNS"]),
    ("Eat blue ham", ["VB", "JJ", "NN"]),
]


def _tagger_examples(nlp):
    return [Example.from_dict(nlp.make_doc(t), {"tags": tags}) for t, tags in TAGGED_SENTENCES]


@pytest.fixture(scope="session")
def tagged_sentences():
    """[(text, POS tags)] of two sentences."""
    return TAGGED_SENTENCES


@pytest.fixture(scope="session")
def tagger_examples():
    """`tagger_examples(nlp)`: Examples of `tagged_sentences` (gold tags)."""
    return _tagger_examples


# the command line: a one-line failure, an input file, a file in the way of an output

CLI_CONLL2000 = (
    "The DT B-NP\ncat NN I-NP\nsat VBD B-VP\n\nGo VB B-VP\n\nDogs NNS B-NP\nbark VBP B-VP\n"
)


def _fail_line(capsys, *argv) -> str:
    """Run the CLI, expecting exit code 1; return its one `✘` line (warnings may precede it)."""
    with pytest.raises(SystemExit) as exc:
        main([str(arg) for arg in argv])
    assert exc.value.code == 1
    err = capsys.readouterr().err
    assert "Traceback" not in err
    lines = err.splitlines()
    assert [line for line in lines if line.startswith("✘")] == lines[-1:], err
    return lines[-1]


@pytest.fixture
def fail_line():
    """`fail_line(capsys, *argv)`: run the CLI, expecting exit code 1 and no traceback;
    return its one `✘` line."""
    return _fail_line


@pytest.fixture
def conll(tmp_path):
    """train.txt: three sentences in the CoNLL-2000 format."""
    path = tmp_path / "train.txt"
    path.write_text(CLI_CONLL2000, encoding="utf8")
    return path


def _unreadable(path):
    path.chmod(0o000)
    if os.access(path, os.R_OK):
        path.chmod(0o600)
        pytest.skip("permissions are not enforced for this user (root)")
    return path


def _unwritable(directory):
    directory.mkdir()
    directory.chmod(0o500)
    if os.access(directory, os.W_OK):
        directory.chmod(0o700)
        pytest.skip("permissions are not enforced for this user (root)")
    return directory


@pytest.fixture(scope="session")
def unreadable():
    """`unreadable(path)`: the file made unreadable (the test skips where root reads anyway)."""
    return _unreadable


@pytest.fixture(scope="session")
def unwritable():
    """`unwritable(directory)`: the directory created read-only (skips for root)."""
    return _unwritable


# a full disk: the command runs in a process whose files may not grow past a limit

_FILE_SIZE_LIMITED = """
import resource, signal, sys
signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit raises EFBIG
limit = int(sys.argv[1])
resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
from spacy_senna.cli import main
main(sys.argv[2:])
"""


def _cli_with_file_size_limit(limit: int, *argv, cwd: Path) -> subprocess.CompletedProcess:
    """Run the CLI in a process that cannot write files larger than `limit` bytes."""
    command = [sys.executable, "-c", _FILE_SIZE_LIMITED, str(limit), *map(str, argv)]
    return subprocess.run(command, capture_output=True, text=True, cwd=cwd)


@pytest.fixture
def cli_with_file_size_limit():
    """`cli_with_file_size_limit(limit, *argv, cwd=DIR)`: run the CLI in a subprocess
    whose writes past `limit` bytes fail with EFBIG, as on a full disk; returns the
    CompletedProcess (text output). Run it outside the checkout (`cwd`), so that it
    imports the installed spacy_senna."""
    return _cli_with_file_size_limit


def _files_under(directory: Path) -> set:
    """The relative paths of every file and directory under `directory`."""
    return {p.relative_to(directory).as_posix() for p in directory.rglob("*")}


@pytest.fixture(scope="session")
def all_files():
    """`all_files(directory)`: the relative paths of everything under it."""
    return _files_under


@pytest.fixture
def afile(tmp_path):
    """A plain file where a command may expect a directory."""
    path = tmp_path / "afile"
    path.write_text("not a directory\n", encoding="utf8")
    return path


# conlleval.pl's input format and its reports on it (scoring/test_conlleval.py, score conll)

# fmt: off
HAND = (
    "The DT B-NP B-NP\n"
    "cat NN I-NP I-NP\n"
    "sat VBD B-VP B-VP\n"
    "on IN B-PP B-NP\n"
    "the DT B-NP I-NP\n"
    "mat NN I-NP I-NP\n"
    ". . O O\n"
    "\n"
    "It PRP B-NP B-NP\n"
    "ran VBD B-VP O\n"
)
# gold: NP(0,2) VP(2,3) PP(3,4) NP(4,6) | NP(0,1) VP(1,2) -> 6 phrases
# pred: NP(0,2) VP(2,3) NP(3,6)         | NP(0,1)         -> 4 phrases, 3 correct
# tags equal on 6 of 9 tokens; NP: 2/3 found, 2/3 gold; PP: 0/0, 0/1; VP: 1/1, 1/2
HAND_REPORT = (
    "processed 9 tokens with 6 phrases; found: 4 phrases; correct: 3.\n"
    "accuracy:  66.67%; precision:  75.00%; recall:  50.00%; FB1:  60.00\n"
    "               NP: precision:  66.67%; recall:  66.67%; FB1:  66.67  3\n"
    "               PP: precision:   0.00%; recall:   0.00%; FB1:   0.00  0\n"
    "               VP: precision: 100.00%; recall:  50.00%; FB1:  66.67  1\n"
)
# IOB1 NER; -DOCSTART- is an ordinary token for conlleval, `-X-` lines are boundaries
NER = (
    "-DOCSTART- -X- O O\n"
    "\n"
    "Ann NNP I-PER I-PER\n"
    "Lee NNP I-PER I-PER\n"
    "Bob NNP B-PER I-PER\n"
    "in IN O O\n"
    "Rome NNP I-LOC I-ORG\n"
    "-X- x O O\n"
    "Paris NNP I-LOC B-LOC\n"
)
# gold PER(Ann Lee) PER(Bob) LOC(Rome) LOC(Paris); pred PER(Ann Lee Bob) ORG(Rome) LOC(Paris)
NER_REPORT = (
    "processed 7 tokens with 4 phrases; found: 3 phrases; correct: 1.\n"
    "accuracy:  57.14%; precision:  33.33%; recall:  25.00%; FB1:  28.57\n"
    "              LOC: precision: 100.00%; recall:  50.00%; FB1:  66.67  1\n"
    "              ORG: precision:   0.00%; recall:   0.00%; FB1:   0.00  1\n"
    "              PER: precision:   0.00%; recall:   0.00%; FB1:   0.00  1\n"
)
# bracket and bare tags, and conlleval.pl's duplicated row for the empty type (from the script)
WILD = "a [ X\nb ] .\nc X [\nd . ]\ne O X\nf B-X O\n"
WILD_REPORT = (
    "processed 6 tokens with 3 phrases; found: 2 phrases; correct: 0.\n"
    "accuracy:   0.00%; precision:   0.00%; recall:   0.00%; FB1:   0.00\n"
    "                 : precision:   0.00%; recall:   0.00%; FB1:   0.00  2\n"
    "                 : precision:   0.00%; recall:   0.00%; FB1:   0.00  2\n"
    "                X: precision:   0.00%; recall:   0.00%; FB1:   0.00  0\n"
)
RAW = "a NN NN\nb VB NN\nc DT DT\n"
RAW_REPORT = (
    "processed 3 tokens with 3 phrases; found: 3 phrases; correct: 2.\n"
    "accuracy:  66.67%; precision:  66.67%; recall:  66.67%; FB1:  66.67\n"
    "               DT: precision: 100.00%; recall: 100.00%; FB1: 100.00  1\n"
    "               NN: precision:  50.00%; recall: 100.00%; FB1:  66.67  2\n"
    "               VB: precision:   0.00%; recall:   0.00%; FB1:   0.00  0\n"
)
# fmt: on


@pytest.fixture(scope="session")
def conlleval_cases():
    """{name: (conlleval input, conlleval.pl's report on it)}: "hand" (chunks), "ner"
    (IOB1, -DOCSTART- and -X- lines), "wild" (bracket and bare tags), "raw" (for -r)."""
    return {
        "hand": (HAND, HAND_REPORT),
        "ner": (NER, NER_REPORT),
        "wild": (WILD, WILD_REPORT),
        "raw": (RAW, RAW_REPORT),
    }


# -- a small trained senna pipeline (tagger -> chunker -> ner -> srl), saved to disk --

# text, POS, chunks, entities, SRL frames {predicate: [(label, start, end)]} (token offsets)
PIPELINE_SENTENCES = [
    (
        "John Smith visited Paris today.",
        "NNP NNP VBD NNP NN .",
        [(0, 2, "NP"), (2, 3, "VP"), (3, 4, "NP"), (4, 5, "NP")],
        [(0, 2, "PER"), (3, 4, "LOC")],
        {2: [("A0", 0, 2), ("V", 2, 3), ("A1", 3, 4), ("AM-TMP", 4, 5)]},
    ),
    (
        "Mary saw the big house in Berlin.",
        "NNP VBD DT JJ NN IN NNP .",
        [(0, 1, "NP"), (1, 2, "VP"), (2, 5, "NP"), (5, 6, "PP"), (6, 7, "NP")],
        [(0, 1, "PER"), (6, 7, "LOC")],
        {1: [("A0", 0, 1), ("V", 1, 2), ("A1", 2, 5), ("AM-LOC", 5, 7)]},
    ),
    (
        "Acme Corp hired Anna Lee and left London.",
        "NNP NNP VBD NNP NNP CC VBD NNP .",
        [(0, 2, "NP"), (2, 3, "VP"), (3, 5, "NP"), (6, 7, "VP"), (7, 8, "NP")],
        [(0, 2, "ORG"), (3, 5, "PER"), (7, 8, "LOC")],
        {
            2: [("A0", 0, 2), ("V", 2, 3), ("A1", 3, 5)],
            6: [("A0", 0, 2), ("V", 6, 7), ("A1", 7, 8)],
        },
    ),
    (
        "The big dog barked.",
        "DT JJ NN VBD .",
        [(0, 3, "NP"), (3, 4, "VP")],
        [],
        {3: [("A0", 0, 3), ("V", 3, 4)]},
    ),
]
PIPELINE_TRAIN_STEPS = 60


def _pipeline_examples(nlp):
    examples = []
    for text, tags, chunks, ents, frames in PIPELINE_SENTENCES:
        words = [t.text for t in nlp.make_doc(text)]
        tags = tags.split()
        assert len(words) == len(tags), (words, tags)
        reference = Doc(nlp.vocab, words=words, tags=tags)
        reference.spans["chunks"] = [Span(reference, s, e, label=lab) for s, e, lab in chunks]
        reference.ents = [Span(reference, s, e, label=lab) for s, e, lab in ents]
        for predicate, arguments in frames.items():
            reference.spans[f"srl:{predicate}"] = [
                Span(reference, s, e, label=lab) for lab, s, e in arguments
            ]
        # gold POS on the input docs: the chunker and SRL read them in training
        examples.append(Example(Doc(nlp.vocab, words=words, tags=tags), reference))
    return examples


@pytest.fixture(scope="session")
def pipeline_dir(tmp_path_factory) -> Path:
    """The trained pipeline, saved; it reproduces PIPELINE_SENTENCES' annotations.

    Seeded: the model must not depend on which tests ran before it was built.
    """
    fix_random_seed(0)
    nlp = English()
    for name in ("senna_tagger", "senna_chunker", "senna_ner", "senna_srl"):
        nlp.add_pipe(name)
    examples = _pipeline_examples(nlp) * 2  # every word seen twice: the word features' min_freq
    optimizer = nlp.initialize(lambda: examples)
    for _ in range(PIPELINE_TRAIN_STEPS):
        nlp.update(examples, sgd=optimizer)
    path = tmp_path_factory.mktemp("pipeline") / "senna"
    nlp.to_disk(path)
    return path
