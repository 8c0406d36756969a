"""Small made-up files in the corpus formats (the converters, convert, score conll) and
conlleval.pl's inputs with its reports on them."""

import gzip
from pathlib import Path

import pytest

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
