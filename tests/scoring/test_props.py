"""The CoNLL-2005 props format: reading (srl-eval.pl's tag syntax, clear errors) and writing."""

import gzip

import pytest

from spacy_senna.scoring import props_lines, read_props

# two sentences; tabs, runs of spaces, a CRLF line, a typed closing `*A1)`, a discontinuous
# A1 (A1 ... C-A1), and a run of blank lines (one break, blank lines holding spaces)
PROPS = (
    "-\t(A0*)    *\n"
    "say  (V*)     *\n"
    "-    (A1*     (A0*\r\n"
    "-    *A1)     *)\n"
    "go   *        (V*)\n"
    "-    (C-A1*)  *\n"
    "\n"
    "   \n"
    "\n"
    "-\n"
    "-\n"
)


def test_read_props(tmp_path):
    path = tmp_path / "gold.props"
    path.write_text(PROPS, encoding="utf8")
    first, second = read_props(path)
    assert first.targets == ["-", "say", "-", "-", "go", "-"]
    assert first.linenos == [1, 2, 3, 4, 5, 6]
    assert first.predicates() == [1, 4]
    assert first.frames() == {
        1: [("A0", 0, 1), ("V", 1, 2), ("A1", 2, 4), ("C-A1", 5, 6)],
        4: [("A0", 2, 4), ("V", 4, 5)],
    }
    assert second.first_line == 10 and second.targets == ["-", "-"] and second.frames() == {}


def test_read_gzipped_props(tmp_path):
    path = tmp_path / "gold.props.gz"
    path.write_bytes(gzip.compress(PROPS.encode("utf8")))
    assert [s.frames() for s in read_props(path)] == [
        s.frames() for s in read_props(_write(tmp_path, PROPS))
    ]


def test_props_lines_round_trip(tmp_path):
    frames = [[("A0", 0, 2), ("V", 2, 3), ("AM-TMP", 3, 4)], [("V", 3, 4)], []]
    lines = props_lines(["-", "-", "eat", "go", "be"], frames)
    assert lines == [
        "- (A0* * *",
        "- *) * *",
        "eat (V*) * *",
        "go (AM-TMP*) (V*) *",
        "be * * *",
        "",
    ]
    (sentence,) = read_props(_write(tmp_path, "\n".join(lines) + "\n"))
    assert list(sentence.frames().values()) == frames


@pytest.mark.parametrize(
    "targets,frames,problem",
    [
        (["go", "-"], [], "1 predicates in the target column, 0 frames"),
        (["go", ""], [[]], "a target must be one non-blank field, found ''"),
        (["go now", "-"], [[]], "a target must be one non-blank field, found 'go now'"),
    ],
)
def test_props_lines_errors(targets, frames, problem):
    with pytest.raises(ValueError, match=problem):
        props_lines(targets, frames)


@pytest.mark.parametrize(
    "text,problem",
    [
        (
            "- *\ngo (V*) *\n",
            ":2: expected 2 columns like the first line of its sentence (line 1), found 3",
        ),
        (
            "- * *\ngo (V*) *\n",
            ":1: the sentence marks 1 predicates in its target column (the first) but has 2 "
            "argument columns",
        ),
        ("go A0\n", ":1: column 2: expected a Start-End tag like (A0*, *, *) or (V*), found 'A0'"),
        (
            "go (*)\n",
            ":1: column 2: expected a Start-End tag like (A0*, *, *) or (V*), found '(*)'",
        ),
        ("go *x\n", ":1: column 2: expected a Start-End tag like (A0*, *, *) or (V*), found '*x'"),
        ("- *\ngo *)\n", ":2: column 2: '*)' closes an argument but none is open"),
        ("- (A0*\ngo *A1)\n", ":2: column 2: '*A1)' closes 'A1' but 'A0' is open"),
        (
            "- (A0*\ngo (V*)\n- *)\n",
            ":2: column 2: argument 'V' opens inside 'A0' (nested arguments in one column are "
            "not supported)",
        ),
        ("- *\ngo (V*)\n- (A1*\n", ":3: column 2: argument 'A1' is never closed"),
        ("go (V*)\n\n- (A0\xff*)\n", ":3: expected UTF-8 text (invalid start byte at byte 5)"),
    ],
)
def test_read_props_errors(tmp_path, text, problem):
    path = tmp_path / "x.props"
    path.write_bytes(text.encode("latin-1"))  # "\xff" is a byte that is not UTF-8
    with pytest.raises(ValueError) as err:
        for sentence in read_props(path):
            sentence.frames()
    assert str(err.value) == f"{path}{problem}"


def _write(tmp_path, text):
    path = tmp_path / "plain.props"
    path.write_text(text, encoding="utf8")
    return path
