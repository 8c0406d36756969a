"""`names-from-text`: a typed gazetteer from the names a pipeline's ner finds in raw text;
how often and how consistently a name was found, and the target language's lower-case
words, decide what is kept; bad inputs get one line."""

import gzip
from collections import Counter

import pytest
from spacy.lang.en import English

from spacy_senna.cli import main
from spacy_senna.commands.names_from_text import NameFilter, select_names
from spacy_senna.features.gazetteer import read_gazetteer

TYPES = ["LOC", "ORG", "PER"]
PATTERNS = [
    {"label": "LOC", "pattern": "Lisbon"},
    {"label": "LOC", "pattern": "Para"},
    {"label": "ORG", "pattern": "Acme Corp"},
    {"label": "PER", "pattern": [{"LOWER": "maria"}, {"LOWER": "silva"}]},
    {"label": "PER", "pattern": "Jordan"},
    {"label": "LOC", "pattern": "Jordan River"},
    {"label": "ORG", "pattern": "Route 66"},
    {"label": "MISC", "pattern": "Olympics"},
]


@pytest.fixture
def ruler_pipeline(tmp_path):
    """A pipeline whose 'ner' is an entity ruler (a few English names)."""
    nlp = English()
    nlp.add_pipe("entity_ruler").add_patterns(PATTERNS)
    path = tmp_path / "ruler"
    nlp.to_disk(path)
    return path


@pytest.fixture
def text(tmp_path):
    path = tmp_path / "wiki.txt.gz"
    lines = [
        "Title line",  # fewer than 8 words: skipped, so its Acme Corp is not counted
        "Acme Corp",
        "Maria Silva moved to Lisbon and then to Para in the north .",
        "Years later maria silva left Lisbon for good , said Jordan .",
        "Jordan met Acme Corp people in Para on Route 66 at the Olympics .",
        "The Jordan River flows south ; Jordan River water ; Jordan spoke .",
        "A line with many words but no name at all in it .",
    ]
    with gzip.open(path, "wt", encoding="utf8") as f:
        f.write("\n".join(lines) + "\n")
    return path


def run(*argv):
    main(["names-from-text", *map(str, argv)])


def test_names_found_twice_with_one_type_are_kept(tmp_path, ruler_pipeline, text):
    out = tmp_path / "names.lst"
    run(text, out, "--pipeline", ruler_pipeline)
    entries = read_gazetteer(out, TYPES)
    # Maria Silva twice (once in lower case, which gives no evidence of a name); Acme Corp
    # once in a counted line; Jordan 3 times PER and Jordan River twice LOC; Route 66 has
    # a digit; the Olympics are MISC
    assert entries == {
        "LOC": {"lisbon", "para", "jordan river"},
        "ORG": set(),
        "PER": {"jordan"},
    }


def test_title_lines_common_words_and_merged_lists(tmp_path, ruler_pipeline, text):
    out = tmp_path / "names.lst"
    run(text, out, "--pipeline", ruler_pipeline, "--min-words", "2")
    assert read_gazetteer(out, TYPES)["ORG"] == {"acme corp"}  # its title line counts now
    common = tmp_path / "pt.txt"
    common.write_text("para ele e para ela , Para\nLisboa\n", encoding="utf8")
    train = tmp_path / "train.lst"
    train.write_text("ORG Banco do Brasil\nPER Jordan\n", encoding="utf8")
    run(text, out, "--pipeline", ruler_pipeline, "--common-words", common, "--also", train)
    # the common words write `para` in lower case 2 times of 3; train's names are added
    assert read_gazetteer(out, TYPES) == {
        "LOC": {"lisbon", "jordan river"},
        "ORG": {"banco do brasil"},
        "PER": {"jordan"},
    }


def test_select_names_counts_and_shares():
    counts = Counter(
        {
            ("LOC", "Georgia"): 7,
            ("PER", "Georgia"): 3,  # 70% LOC
            ("ORG", "Apple"): 2,
            ("PER", "Apple"): 2,  # 50% each: no main type
            ("PER", "John Smith"): 1,
            ("PER", "JOHN SMITH"): 1,  # one name, however it is cased
            ("ORG", "Area 51"): 9,  # a digit
            ("LOC", "the north"): 9,  # no capital letter
            ("LOC", "Rio"): 5,
            ("LOC", "Rio de Janeiro"): 5,
        }
    )
    common = (Counter({"rio": 8, "de": 50}), Counter({"rio": 2}))
    got = select_names(counts, NameFilter(), common)
    assert got == {"LOC": {"georgia", "rio de janeiro"}, "ORG": set(), "PER": {"john smith"}}
    assert select_names(counts, NameFilter(min_share=0.75))["LOC"] == {"rio", "rio de janeiro"}
    assert select_names(counts, NameFilter(min_count=3))["PER"] == set()


def test_errors_are_one_line(capsys, tmp_path, ruler_pipeline, text, fail_line):
    out = tmp_path / "names.lst"
    missing = tmp_path / "missing.txt"
    assert fail_line(capsys, "names-from-text", missing, out, "--pipeline", ruler_pipeline) == (
        f"✘ {missing}: does not exist or is not a file"
    )
    line = fail_line(
        capsys, "names-from-text", text, out, "--pipeline", ruler_pipeline, "--components", "ner"
    )
    assert line.startswith("✘ --components ner: ") and "entity_ruler" in line
    blank = tmp_path / "blank"
    English().to_disk(blank)
    line = fail_line(capsys, "names-from-text", text, out, "--pipeline", blank)
    assert "found no LOC/ORG/PER name" in line and "a pipeline with a ner?" in line
    line = fail_line(capsys, "names-from-text", text, out, "--pipeline", tmp_path / "nothing")
    assert "Pipeline not found" in line
    assert fail_line(
        capsys, "names-from-text", text, out, "--pipeline", ruler_pipeline, "--min-share", "0"
    ).startswith("✘ --min-count must be >= 1, --min-share in (0, 1]")
    assert not out.exists()


def test_a_full_disk_leaves_no_partial_list(
    tmp_path, ruler_pipeline, text, cli_with_file_size_limit, all_files
):
    out = tmp_path / "out" / "names.lst"
    before = all_files(tmp_path)
    done = cli_with_file_size_limit(
        1, "names-from-text", str(text), str(out), "--pipeline", str(ruler_pipeline), cwd=tmp_path
    )
    assert done.returncode == 1 and "Traceback" not in done.stderr, done.stderr
    assert done.stderr.splitlines()[-1] == f"✘ {out}: file too large"
    assert all_files(tmp_path) == before
