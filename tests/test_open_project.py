"""projects/open: the EWT join that gives every component the same sentences, and the
project file naming only scripts and configs that exist."""

import re
import subprocess
import sys
from pathlib import Path

import srsly
from spacy.tokens import DocBin
from spacy.vocab import Vocab

PROJECT = Path(__file__).resolve().parent.parent / "projects" / "open"

PROPBANK = (
    "# sent_id = d-1\n1\tAnn\tNNP\tB-NP\t-\t(A0*)\n2\tslept\tVBD\tB-VP\tsleep\t(V*)\n\n"
    "# sent_id = d-2\n1\tBob\tNNP\tB-NP\t-\n\n"
    "# sent_id = d-3\n1\tOnly\tRB\tO\t-\n\n"
)
UNER = "# sent_id = d-1\n1\tAnn\tB-PER\n2\tslept\tO\n\n# sent_id = d-2\n1\tRob\tB-PER\n\n"


def test_join_keeps_sentences_in_both_files_with_the_same_words(tmp_path):
    (tmp_path / "pb.conll05-verbal").write_text(PROPBANK)
    (tmp_path / "uner.iob2").write_text(UNER)
    out = tmp_path / "corpus" / "train.spacy"
    result = subprocess.run(
        [
            sys.executable,
            str(PROJECT / "scripts" / "join_ewt.py"),
            "pb.conll05-verbal",
            "uner.iob2",
            str(out),
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stderr
    assert "1 not in uner.iob2, 1 with other words there" in result.stdout
    (doc,) = DocBin().from_disk(out).get_docs(Vocab())
    assert [t.tag_ for t in doc] == ["NNP", "VBD"]
    assert [(e.text, e.label_) for e in doc.ents] == [("Ann", "PER")]
    assert [(s.text, s.label_) for s in doc.spans["srl:1"]] == [("Ann", "A0"), ("slept", "V")]
    assert [s.label_ for s in doc.spans["chunks"]] == ["NP", "VP"]


def test_project_names_existing_scripts_and_configs():
    project = srsly.read_yaml(PROJECT / "project.yml")
    names = {command["name"] for command in project["commands"]}
    assert set(project["workflows"]["all"]) <= names
    for command in project["commands"]:
        for line in command["script"]:
            for path in re.findall(r"(?:scripts|\.\./\.\./configs|\.\./\.\./benchmarks)/\S+", line):
                path = path.rstrip("\"'")
                assert (PROJECT / path).is_file(), (command["name"], path)
