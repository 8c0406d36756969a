import itertools

import numpy
import pytest

from spacy_senna.labels.tags import (
    allowed_transitions,
    biluo_labels,
    biluo_paths_to_chunks,
    biluo_to_chunks,
    chunks_to_biluo,
    chunks_to_iob2,
    conlleval_chunks,
    iob1_to_chunks,
    iob2_to_chunks,
    split_tag,
)


@pytest.mark.parametrize(
    "tag,expected",
    [
        ("B-NP", ("B", "NP")),
        ("O", ("O", "")),
        ("NN", ("NN", "")),
        ("I-X-Y", ("I", "X-Y")),
        ("-X-", ("", "X-")),
        ("B-0", ("B", "")),
    ],
)
def test_split_tag_like_conlleval(tag, expected):
    assert split_tag(tag) == expected


def test_iob2():
    tags = ["B-NP", "I-NP", "B-VP", "O", "B-NP", "B-NP", "I-NP"]
    assert iob2_to_chunks(tags) == [("NP", 0, 2), ("VP", 2, 3), ("NP", 4, 5), ("NP", 5, 7)]


def test_iob1():
    tags = ["I-PER", "I-PER", "B-PER", "O", "I-LOC", "I-ORG", "I-ORG"]
    expected = [("PER", 0, 2), ("PER", 2, 3), ("LOC", 4, 5), ("ORG", 5, 7)]
    assert iob1_to_chunks(tags) == expected


@pytest.mark.parametrize(
    "tags,expected",
    [
        (["O", "I-X"], [("X", 1, 2)]),  # I after O starts a chunk
        (["B-X", "I-Y"], [("X", 0, 1), ("Y", 1, 2)]),  # type change starts a chunk
        (["I-X", "I-X"], [("X", 0, 2)]),  # IOB1: one chunk
        (["I-X", "I-Y", "I-Y"], [("X", 0, 1), ("Y", 1, 3)]),
        (["B-X", "O", "I-X"], [("X", 0, 1), ("X", 2, 3)]),
        (["I-X", "E-X", "E-X", "O"], [("X", 0, 2), ("X", 2, 3)]),  # IOE
        (["[", "]", "O"], [("", 0, 1), ("", 1, 2)]),  # bracket tags: one-token chunks
        # conlleval.pl knows no S-/E- after B-: IOBES reads as one chunk here
        (["B-X", "E-X", "S-X"], [("X", 0, 3)]),
        ([], []),
        (["O", "O"], []),
    ],
)
def test_conlleval_reading(tags, expected):
    assert conlleval_chunks(tags) == expected


@pytest.mark.parametrize(
    "tags,expected",
    [
        (["B-X", "I-X", "L-X", "U-Y", "O"], [("X", 0, 3), ("Y", 3, 4)]),
        (["B-X", "I-X", "E-X", "S-Y", "O"], [("X", 0, 3), ("Y", 3, 4)]),
        (["U-X", "U-X", "B-X", "L-X"], [("X", 0, 1), ("X", 1, 2), ("X", 2, 4)]),
        (["S-X", "S-X"], [("X", 0, 1), ("X", 1, 2)]),
        # invalid sequences read leniently
        (["O", "I-X", "L-X"], [("X", 1, 3)]),
        (["B-X", "O"], [("X", 0, 1)]),
        (["B-X", "I-Y", "L-Y"], [("X", 0, 1), ("Y", 1, 3)]),
        (["L-X", "L-X"], [("X", 0, 1), ("X", 1, 2)]),
        (["U-X", "I-X"], [("X", 0, 1), ("X", 1, 2)]),
        (["B-X", "NN", "U-Y", "B-", "BI-Z"], [("X", 0, 1), ("Y", 2, 3)]),  # bare tags read as O
    ],
)
def test_biluo_to_chunks(tags, expected):
    assert biluo_to_chunks(tags) == expected


def test_a_label_named_0_round_trips_through_biluo():
    """conlleval reads the type "0" as no type (Perl); BILUO decoding must not, or a
    component with such a label could train on it but never output it."""
    chunks = [("0", 0, 2), ("0", 2, 3)]
    assert biluo_to_chunks(chunks_to_biluo(chunks, 4)) == chunks


def test_chunks_to_tags_round_trip():
    chunks = [("NP", 0, 3), ("VP", 3, 4), ("NP", 4, 5), ("NP", 5, 7)]
    biluo = chunks_to_biluo(chunks, 8)
    assert biluo == ["B-NP", "I-NP", "L-NP", "U-VP", "U-NP", "B-NP", "L-NP", "O"]
    assert biluo_to_chunks(biluo) == chunks
    iob2 = chunks_to_iob2(chunks, 8)
    assert iob2 == ["B-NP", "I-NP", "I-NP", "B-VP", "B-NP", "B-NP", "I-NP", "O"]
    assert conlleval_chunks(iob2) == chunks
    assert chunks_to_biluo(reversed(chunks), 8) == biluo


@pytest.mark.parametrize(
    "chunks", [[("X", 0, 2), ("Y", 1, 3)], [("X", 2, 2)], [("X", 3, 5)], [("", 0, 1)]]
)
def test_bad_chunks_raise(chunks):
    with pytest.raises(ValueError):
        chunks_to_biluo(chunks, 4)
    with pytest.raises(ValueError):
        chunks_to_iob2(chunks, 4)


def test_biluo_labels():
    assert biluo_labels(["PER", "LOC", "PER"]) == [
        "O",
        "B-LOC",
        "I-LOC",
        "L-LOC",
        "U-LOC",
        "B-PER",
        "I-PER",
        "L-PER",
        "U-PER",
    ]


def _brute_force(labels, is_valid):
    """Transitions implied by which short sequences are valid in the scheme."""
    pads = [[]] + [[label] for label in labels]
    n = len(labels)
    trans = [[False] * n for _ in range(n)]
    start, end = [False] * n, [False] * n
    for i, a in enumerate(labels):
        for left, right in itertools.product(pads, pads):
            if is_valid([a] + right):
                start[i] = True
            if is_valid(left + [a]):
                end[i] = True
            for j, b in enumerate(labels):
                if is_valid(left + [a, b] + right):
                    trans[i][j] = True
    return trans, start, end


def _valid_biluo(seq):
    seq = [tag if "-" in tag else "O" for tag in seq]  # bare tags behave like O
    return chunks_to_biluo(biluo_to_chunks(seq), len(seq)) == seq


def _valid_iob2(seq):
    seq = [tag if "-" in tag else "O" for tag in seq]
    return chunks_to_iob2(conlleval_chunks(seq), len(seq)) == seq


@pytest.mark.parametrize(
    "scheme,labels,is_valid",
    [
        ("BILUO", ["O", "NN"] + biluo_labels(["X", "Y"])[1:], _valid_biluo),
        ("IOB2", ["O", "NN", "B-X", "I-X", "B-Y", "I-Y"], _valid_iob2),
    ],
)
def test_allowed_transitions_match_valid_sequences(scheme, labels, is_valid):
    trans, start, end = allowed_transitions(labels, scheme)
    expected_trans, expected_start, expected_end = _brute_force(labels, is_valid)
    assert trans.shape == (len(labels), len(labels)) and trans.dtype == bool
    assert trans.tolist() == expected_trans
    assert start.tolist() == expected_start
    assert end.tolist() == expected_end


def test_allowed_transitions_biluo_spot_checks():
    labels = ["O", "B-X", "I-X", "L-X", "U-X", "B-Y", "L-Y"]
    index = {label: i for i, label in enumerate(labels)}
    trans, start, end = allowed_transitions(labels, "BILUO")
    ok = [("O", "B-X"), ("B-X", "I-X"), ("B-X", "L-X"), ("I-X", "L-X"), ("L-X", "U-X")]
    bad = [("O", "I-X"), ("B-X", "O"), ("B-X", "L-Y"), ("U-X", "L-X"), ("I-X", "B-Y")]
    assert all(trans[index[a], index[b]] for a, b in ok)
    assert not any(trans[index[a], index[b]] for a, b in bad)
    assert start.tolist() == [True, True, False, False, True, True, False]
    assert end.tolist() == [True, False, False, True, True, False, True]


def test_allowed_transitions_iobes_letters_match_biluo():
    biluo = allowed_transitions(["O", "B-X", "I-X", "L-X", "U-X"], "BILUO")
    iobes = allowed_transitions(["O", "B-X", "I-X", "E-X", "S-X"], "BILUO")
    for a, b in zip(biluo, iobes):
        assert a.tolist() == b.tolist()


def test_allowed_transitions_iob1():
    labels = ["O", "B-X", "I-X", "B-Y", "I-Y"]
    trans, start, end = allowed_transitions(labels, "IOB1")
    # B-X only separates two adjacent chunks of type X
    assert trans[:, 1].tolist() == [False, True, True, False, False]
    assert trans[:, 2].all() and trans[:, 0].all()
    assert start.tolist() == [True, False, True, False, True]
    assert end.all()


@pytest.mark.parametrize("labels,scheme", [(["O", "L-X"], "IOB2"), (["O", "B-X"], "BIO")])
def test_allowed_transitions_rejects_unknown(labels, scheme):
    with pytest.raises(ValueError):
        allowed_transitions(labels, scheme)


@pytest.mark.parametrize(
    "tags",
    [
        biluo_labels(["NP", "VP", "PP"]),
        ["O", "B-X", "I-X", "E-X", "S-X", "B-Y", "L-Y", "U-Y", "I-Y", "NN", "B-", "Q-Z"],
    ],
)
def test_paths_read_at_once_give_the_chunks_of_each_row(tags):
    """`biluo_paths_to_chunks` reads a batch of tag-id rows (any, invalid ones included,
    -1 as O) exactly as `biluo_to_chunks` reads each row's tags."""
    rng = numpy.random.default_rng(0)
    for n_rows, width, _ in itertools.product([0, 1, 5], [0, 1, 2, 7], range(20)):
        paths = rng.integers(-1, len(tags), size=(n_rows, width))
        lengths = rng.integers(0, width + 1, size=n_rows).tolist()
        expected = [
            biluo_to_chunks([tags[t] if t >= 0 else "O" for t in paths[row, :n]])
            for row, n in enumerate(lengths)
        ]
        assert biluo_paths_to_chunks(paths, lengths, tags) == expected


def test_biluo_paths_to_chunks_names_a_tag_id_past_the_inventory():
    tags = ["O", "B-X", "I-X", "L-X", "U-X"]
    with pytest.raises(ValueError, match="outside the 5 tags"):
        biluo_paths_to_chunks(numpy.array([[1, 5]]), [2], tags)
    # lengths past the paths' width read only the paths there are
    assert biluo_paths_to_chunks(numpy.array([[1, 3]]), [4], tags) == [[("X", 0, 2)]]
