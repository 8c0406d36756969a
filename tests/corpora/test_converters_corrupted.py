"""Every converter on randomly corrupted files: it reads them or raises a ValueError that
names the file; no other exception escapes and nothing is silently half-read."""

import gzip

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from spacy.vocab import Vocab

from spacy_senna.corpora.converters import CONVERTERS

# small made-up files in each benchmark format
VALID = {
    "wsj-pos": "The\tDT\ncat\tNN\nsat\tVBD\n.\t.\n\nIt\tPRP\nran\tVBD\n",
    "wsj-pt0": "The\tDT\tB-NP\ncat\tNN\tI-NP\nsat\tVBD\tB-VP\n.\t.\tO\n\nIt\tPRP\tB-NP\n",
    "conll2000": "The DT B-NP\ncat NN I-NP\nsat VBD B-VP\non IN B-PP\n\nGo VB B-VP\n",
    "conll2003": (
        "-DOCSTART- -X- -X- O\n\nAnn NNP I-NP I-PER\nLee NNP I-NP I-PER\n"
        "saw VBD I-VP O\nNew NNP I-NP I-LOC\nYork NNP I-NP I-LOC\n\nHi UH O O\n"
    ),
    "conllu": (
        "# sent_id = 1\n1\tI\tI\tPRON\tPRP\t_\t2\tnsubj\t_\t_\n"
        "2-3\tdon't\t_\t_\t_\t_\t_\t_\t_\t_\n2\tdo\tdo\tAUX\tVBP\t_\t0\troot\t_\t_\n"
        "3\tn't\tnot\tPART\tRB\t_\t2\tadvmod\t_\tSpaceAfter=No\n\n"
    ),
    "conll2005": (
        "The DT (S1(S(NP* * - - (A0* *\ncat NN *) * - - *) *\n"
        "chased VBD (VP* * 01 chase (V*) *\nthe DT (NP* * - - (A1* (A0*\n"
        "mouse NN *) * - - *) *)\nbarked VBD (VP*) * 01 bark * (V*)\n. . *)) * - - * *\n"
    ),
    "propbank-ewt": (
        "# sent_id = d-1\n1\tAnn\tNNP\tB-NP\t-\t(A0*)\n2\tfed\tVBD\tB-VP\tfeed\t(V*)\n"
        "3\tthe\tDT\tB-NP\t-\t(A1*\n4\tcat\tNN\tI-NP\t-\t*)\n\n"
        "# sent_id = d-2\n1\tHi\tUH\tB-INTJ\t-\n"
    ),
    "uner": "# sent_id = d-1\n1\tAnn\tB-PER\n2\tsaw\tO\n3\tNew\tB-LOC\n4\tYork\tI-LOC\n",
    "btc": "Ann\tB-PER\nsaw\tO\nNew\tB-LOC\nYork\tI-LOC\n\n#\tO\nhi\tO\n",
    "gum-open": (
        "# sent_id = g-1\n1\tAnn\tNNP\tB-PER\tB-NP\n2\tsaw\tVBD\tO\tB-VP\n"
        "3\tRome\tNNP\tB-LOC\tB-NP\n"
    ),
    "ptb-trees": "( (S (NP-SBJ (NNP Ann)) (VP (VBD saw) (NP (-NONE- *))) (. .)))\n(X (NN hi))\n",
    "ewt-trees": (
        "# sent_id = d-1\n1\tAnn\tNNP\tNNP\tB-NP\t(TOP(S(NP*)\n2\tsaw\tVBD\tVBD\tB-VP\t(VP*)\n"
        "3\t.\t.\t.\tO\t*))\n"
    ),
    "ud": (
        "# sent_id = p-1\n1\tAna\tAna\tPROPN\t_\t_\t2\tnsubj\t_\t_\n"
        "2\tmora\tmorar\tVERB\t_\t_\t0\troot\t_\t_\n3-4\tno\t_\t_\t_\t_\t_\t_\t_\t_\n"
        "3\tem\tem\tADP\t_\t_\t5\tcase\t_\t_\n4\to\to\tDET\t_\t_\t5\tdet\t_\t_\n"
        "5\tPorto\tPorto\tPROPN\t_\t_\t2\tobl\t_\tSpaceAfter=No\n"
    ),
    "ud-xpos": (
        "# sent_id = p-1\n1\tAna\tAna\tPROPN\tPROP|F|S|@SUBJ>\t_\t2\tnsubj\t_\t_\n"
        "2\tmora\tmorar\tVERB\t<mv>|V|PR|@FS-STA\t_\t0\troot\t_\t_\n"
        "3-4\tno\t_\t_\t_\t_\t_\t_\t_\t_\n3\tem\tem\tADP\t<sam->|PRP|@<ADVL\t_\t5\tcase\t_\t_\n"
        "4\to\to\tDET\t<-sam>|ART|@>N\t_\t5\tdet\t_\t_\n5\tPorto\tPorto\tPROPN\t_\t_\t2\tobl\t_\t_\n"
    ),
    "up": (
        '# id="1" ref="p-1"\n1\tAna\tAna\tPROPN\tPROPN\t_\t2\tnsubj\t_\t_\tA0\n'
        "2\tmora\tmorar\tVERB\tVERB\t_\t0\troot\tY\tlive.01\t_\n"
        "3\tem\tem\tADP\tADP\t_\t4\tcase\t_\t_\t_\n4\tPorto\tPorto\tPROPN\tPROPN\t_\t2\tnmod\t_\t_\tAM-LOC\n"
    ),
}

edit = st.tuples(
    st.sampled_from(["delete", "insert", "replace", "truncate", "drop-line", "dup-line"]),
    st.integers(min_value=0, max_value=10_000),
    st.binary(min_size=1, max_size=4) | st.sampled_from([b" ", b"\t", b"\n", b"(", b"*", b"-"]),
)


def corrupt(data: bytes, edits) -> bytes:
    for kind, where, blob in edits:
        i = where % (len(data) + 1)
        if kind == "delete":
            data = data[:i] + data[i + len(blob) :]
        elif kind == "insert":
            data = data[:i] + blob + data[i:]
        elif kind == "replace":
            data = data[:i] + blob + data[i + len(blob) :]
        elif kind == "truncate":
            data = data[:i]
        else:
            lines = data.split(b"\n")
            j = where % len(lines)
            lines[j : j + 1] = [] if kind == "drop-line" else [lines[j], lines[j]]
            data = b"\n".join(lines)
    return data


@pytest.mark.parametrize("name", sorted(CONVERTERS))
@settings(
    max_examples=40,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(edits=st.lists(edit, min_size=1, max_size=4), gzipped=st.booleans())
def test_corrupted_files_are_read_or_named_in_a_value_error(tmp_path, name, edits, gzipped):
    assert set(VALID) == set(CONVERTERS)
    data = corrupt(VALID[name].encode("utf8"), edits)
    path = tmp_path / ("input.gz" if gzipped else "input.txt")
    path.write_bytes(gzip.compress(data) if gzipped else data)
    try:
        docs = list(CONVERTERS[name](path, Vocab()))
    except ValueError as err:
        assert str(path) in str(err)
        return
    for doc in docs:
        assert len(doc) > 0 and all(token.text for token in doc)


@pytest.mark.parametrize("name", sorted(CONVERTERS))
def test_a_truncated_gzip_file_is_named(tmp_path, name):
    path = tmp_path / "input.gz"
    path.write_bytes(gzip.compress(VALID[name].encode("utf8"))[:-12])
    with pytest.raises(ValueError, match="input.gz"):
        list(CONVERTERS[name](path, Vocab()))
