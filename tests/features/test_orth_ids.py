"""OrthIds: a featurizer's per-word id rows, read for a batch's tokens at once."""

import numpy

from spacy_senna.features.orth_ids import OrthIds


def _rows_of(orths, first=None):
    return [[int(o) % 97, int(o) % 89] for o in orths.tolist()]


def test_rows_are_computed_once_per_orth_and_read_back_in_order():
    table = OrthIds()
    asked = []

    def compute(orths, first):
        asked.append((orths.tolist(), first.tolist()))
        return _rows_of(orths)

    big = 2**64 - 5  # spaCy's orths are uint64 hashes, often past int64
    first = numpy.array([10, 3, big, 3], dtype="uint64")  # a batch's tokens, in order
    assert table.rows(first, compute).tolist() == _rows_of(first)
    second = numpy.array([7, 3, big, 1, 7], dtype="uint64")  # two new ones among known ones
    assert table.rows(second, compute).tolist() == _rows_of(second)
    # each new orth once, sorted, with where it first occurs in the batch
    assert asked == [([3, 10, big], [1, 0, 2]), ([1, 7], [3, 0])]
    assert table.rows(second, compute).tolist() == _rows_of(second)
    assert len(asked) == 2 and len(table) == 5
    table.clear()
    assert len(table) == 0
    assert table.rows(first, compute).tolist() == _rows_of(first)
    assert len(asked) == 3


def test_many_batches_of_new_words_keep_every_row():
    table = OrthIds()
    rng = numpy.random.default_rng(0)
    seen = numpy.zeros(0, dtype="uint64")
    for _ in range(30):  # past the first buffer's 1,024 rows, with new words every batch
        batch = numpy.unique(rng.integers(0, 2**63, 200, dtype="uint64"))
        batch = numpy.unique(numpy.concatenate([batch, seen[:50]]))
        assert table.rows(batch, _rows_of).tolist() == _rows_of(batch)
        seen = numpy.unique(numpy.concatenate([seen, batch]))
    assert len(table) == len(seen)
    assert table.rows(seen, _rows_of).tolist() == _rows_of(seen)


def test_past_its_size_the_table_starts_again_and_reads_the_same():
    table = OrthIds(max_words=300)
    rng = numpy.random.default_rng(1)
    for _ in range(5):
        batch = numpy.unique(rng.integers(0, 2**63, 200, dtype="uint64"))
        assert table.rows(batch, _rows_of).tolist() == _rows_of(batch)
        assert len(table) <= 300 + 200


def test_small_calls_read_a_dict_and_a_batch_after_them_sees_their_words():
    table = OrthIds()
    rng = numpy.random.default_rng(2)
    words = numpy.unique(rng.integers(0, 2**64 - 1, 2_000, dtype="uint64"))
    for start in range(0, 1_000, 17):  # texts alone: new words join the dict only
        text = words[start : start + 17][::-1]
        assert table.rows(text, _rows_of).tolist() == _rows_of(text)
    assert not table._sorted and len(table._orths) == 0
    batch = rng.permutation(words)  # a batch: half known (sorted once), half new
    assert table.rows(batch, _rows_of).tolist() == _rows_of(batch)
    assert table._sorted and len(table._orths) == len(table) == len(words)
    assert table.rows(words[:5], _rows_of).tolist() == _rows_of(words[:5])
