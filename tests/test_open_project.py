"""projects/open: the EWT join that gives every component the same sentences, and the
project file naming only scripts and configs that exist, the empty frames for verbs
without one, evaluation in float32 on any CPU and on other sources without MISC, and the
recased copies of the ner's sentences."""

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import spacy
import srsly
from spacy.language import Language
from spacy.tokens import Doc, DocBin, Span
from spacy.vocab import Vocab

from spacy_senna.bundled import bundled_path
from spacy_senna.syntax.noun_chunks import read_noun_chunks_from

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
    for workflow in project["workflows"].values():
        assert set(workflow) <= names
    for command in project["commands"]:
        for line in command["script"]:
            for path in re.findall(r"(?:scripts|\.\./\.\./configs|\.\./\.\./benchmarks)/\S+", line):
                path = path.rstrip("\"'")
                assert (PROJECT / path).is_file(), (command["name"], path)


def test_every_verb_without_a_frame_gets_an_empty_one(tmp_path):
    vocab = Vocab()
    doc = Doc(vocab, words=["Ann", "has", "slept", "and", "is", "tired"])
    for token, tag in zip(doc, ["NNP", "VBZ", "VBN", "CC", "VBZ", "JJ"]):
        token.tag_ = tag
    doc.spans["srl_predicates"] = [Span(doc, 2, 3, label="sleep.01")]
    doc.spans["srl:2"] = [Span(doc, 0, 1, label="A0"), Span(doc, 2, 3, label="V")]
    source, out = tmp_path / "in.spacy", tmp_path / "out" / "train.spacy"
    DocBin(docs=[doc], store_user_data=True).to_disk(source)
    script = PROJECT / "scripts" / "add_verb_predicates.py"
    result = subprocess.run(
        [sys.executable, str(script), str(source), str(out)], capture_output=True, text=True
    )
    assert result.returncode == 0, result.stderr
    assert "1 PropBank frames and 2 empty ones" in result.stdout
    (got,) = DocBin().from_disk(out).get_docs(Vocab())
    assert [s.start for s in got.spans["srl_predicates"]] == [1, 2, 4]
    assert [(s.text, s.label_) for s in got.spans["srl:2"]] == [("Ann", "A0"), ("slept", "V")]
    for i in (1, 4):
        assert [(s.start, s.label_) for s in got.spans[f"srl:{i}"]] == [(i, "V")]


def test_evaluate_can_score_in_float32_whatever_the_configs_say(load_script):
    """The model card's figures are float32; en_senna's configs ask for bfloat16."""
    evaluate_open = load_script(PROJECT / "scripts" / "evaluate_open.py")
    overrides = evaluate_open._inference_dtype_overrides(str(bundled_path()), "float32")
    assert overrides == {
        "components": {
            name: {"model": {"inference_dtype": "float32"}}
            for name in ("senna_tagger", "senna_chunker", "senna_ner", "senna_parser")
        }
    }
    nlp = spacy.load(bundled_path(), config=overrides)
    for name in ("senna_ner", "senna_parser"):
        assert nlp.config["components"][name]["model"]["inference_dtype"] == "float32"
    assert evaluate_open._inference_dtype_overrides(str(bundled_path()), None) == {}


def test_other_sources_score_entities_without_misc(tmp_path):
    """CoNLL-2003's MISC has no counterpart in en_senna: it is not counted as missed."""
    vocab = Vocab()
    found = Doc(vocab, words="He visited Paris with Angela Merkel on Monday .".split())
    found.ents = [Span(found, 2, 3, label="LOC"), Span(found, 4, 6, label="PER")]
    misc = Doc(vocab, words="Ann watched the Olympics .".split())
    misc.ents = [Span(misc, 3, 4, label="MISC")]
    DocBin(docs=[found, misc]).to_disk(tmp_path / "testb.spacy")
    output = tmp_path / "metrics.json"
    result = subprocess.run(
        [
            sys.executable,
            str(PROJECT / "scripts" / "evaluate_other_sources.py"),
            str(bundled_path()),
            "--conll2003",
            str(tmp_path / "testb.spacy"),
            "--output",
            str(output),
        ],
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stderr
    scores = srsly.read_json(output)
    assert scores["ner_conll2003_testb"]["ents_r"] == 100.0
    assert set(scores["ner_conll2003_testb_per_type"]) <= {"PER", "LOC", "ORG"}
    assert "pos_wsj_22_24" not in scores and "srl_wsj23_given_predicates" not in scores


def test_recased_copies_keep_tokens_and_entities(tmp_path):
    vocab = Vocab()
    docs = [Doc(vocab, words=f"Ann met Bob in Paris {i} .".split()) for i in range(8)]
    for doc in docs:
        doc.ents = [Span(doc, 0, 1, label="PER"), Span(doc, 4, 5, label="LOC")]
    unknown = Doc(vocab, words=["Acme", "rose"], ents=["B-ORG", None])  # "rose": not annotated
    source, out = tmp_path / "in.spacy", tmp_path / "out" / "train.spacy"
    DocBin(docs=[*docs, unknown]).to_disk(source)
    script = PROJECT / "scripts" / "recase_docs.py"
    args = [str(source), str(out), "--lower", "0.5", "--upper", "0.5"]
    result = subprocess.run([sys.executable, str(script), *args], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    got = list(DocBin().from_disk(out).get_docs(Vocab()))
    assert len(got) == 17 and [d.text for d in got[:9]] == [d.text for d in [*docs, unknown]]
    copies = got[9:]  # half of 9 is 4 (rounded to even), lowercased, then 4 uppercased
    assert [d.text.islower() for d in copies] == [True] * 4 + [False] * 4
    assert [d.text.isupper() for d in copies] == [False] * 4 + [True] * 4
    for copy in copies:
        original = {d.text.lower(): d for d in [*docs, unknown]}[copy.text.lower()]
        assert copy.text in (original.text.lower(), original.text.upper())
        assert [(e.start, e.end, e.label_) for e in copy.ents] == [
            (e.start, e.end, e.label_) for e in original.ents
        ]
        assert [t.ent_iob_ for t in copy] == [t.ent_iob_ for t in original]
    bad = subprocess.run([sys.executable, str(script), str(source), str(out), "--lower", "0.8"])
    assert bad.returncode != 0


def test_pruned_strings_label_as_before(load_script, pipeline_dir, tmp_path):
    """scripts/prune_strings.py keeps only the strings the components add on loading: the
    pipeline keeps its labels and labels texts, with words it no longer stores, as before."""
    prune = load_script(PROJECT / "scripts" / "prune_strings.py")
    nlp = spacy.load(pipeline_dir)
    for word in ("zyxwvut", "qwertyuiop"):
        nlp.vocab.strings.add(word)  # what training leaves in the vocab
    nlp.to_disk(tmp_path / "pipeline")
    before, after = prune.prune_strings(tmp_path / "pipeline")
    kept = set(srsly.read_json(tmp_path / "pipeline" / "vocab" / "strings.json"))
    assert after == len(kept) < before and "zyxwvut" not in kept
    pruned = spacy.load(tmp_path / "pipeline")
    assert pruned.get_pipe("senna_ner").labels == nlp.get_pipe("senna_ner").labels
    texts = ["John Smith visited Paris today.", "Unseen words like zyxwvut get tags."]
    for original, again in zip(nlp.pipe(texts), pruned.pipe(texts)):
        assert [t.tag_ for t in again] == [t.tag_ for t in original]
        assert [(e.text, e.label_) for e in again.ents] == [
            (e.text, e.label_) for e in original.ents
        ]
        spans = {k: [(s.start, s.end, s.label_) for s in original.spans[k]] for k in original.spans}
        assert {
            k: [(s.start, s.end, s.label_) for s in again.spans[k]] for k in again.spans
        } == spans


def test_add_attributes_covers_every_tag_and_rebuilds_the_bundled_rules(load_script):
    """scripts/add_attributes.py maps every tag senna_tagger predicts, and run again on the
    bundled pipeline (with its own tables: spacy-lookups-data is only needed to build)
    gives the same components, rules and config: the pipeline is what the script builds."""
    add_attributes = load_script(PROJECT / "scripts" / "add_attributes.py")
    nlp = spacy.load(bundled_path())
    assert set(nlp.get_pipe("senna_tagger").labels) | {"_SP"} <= set(add_attributes.TAG_MAP)
    config, patterns = nlp.config.to_str(), nlp.get_pipe("attribute_ruler").patterns
    names, sources = nlp.pipe_names, nlp.meta["sources"]
    add_attributes.add_attributes(nlp, lookups=nlp.get_pipe("lemmatizer").lookups)
    assert nlp.pipe_names == names and nlp.meta["sources"] == sources
    assert nlp.get_pipe("attribute_ruler").patterns == patterns
    assert nlp.config.to_str() == config


def test_attribute_scores_count_every_token(load_script):
    evaluate_attributes = load_script(PROJECT / "scripts" / "evaluate_attributes.py")
    vocab = Vocab()
    gold = Doc(vocab, words=["Cats", "ran"], tags=["NNS", "VBD"], pos=["NOUN", "VERB"])
    gold[0].lemma_, gold[1].lemma_ = "cat", "run"
    got = Doc(vocab, words=["Cats", "ran"], tags=["NNS", "VBN"], pos=["NOUN", "VERB"])
    got[0].lemma_, got[1].lemma_ = "Cat", "ran"
    scores = evaluate_attributes._scores([(got, gold)])
    assert scores == {"tokens": 2, "tag": 50.0, "pos": 100.0, "lemma": 0.0, "lemma_ci": 50.0}
    table = evaluate_attributes.table([{"pipeline": "a/en_senna", **scores}])
    assert "| en_senna | 50.00 | 100.00 | 0.00 | 50.00 |" in table


def test_noun_chunk_scores_count_only_np_chunks(load_script, tmp_path):
    """`--chunks` scores doc.noun_chunks against the gold chunks labelled NP, by bounds."""
    evaluate_attributes = load_script(PROJECT / "scripts" / "evaluate_attributes.py")
    nlp = spacy.blank("en")
    gold = nlp.make_doc("The cat saw a dog")
    gold.spans["chunks"] = [Span(gold, 0, 2, "NP"), Span(gold, 2, 3, "VP"), Span(gold, 3, 5, "NP")]
    DocBin(docs=[gold], store_user_data=True).to_disk(tmp_path / "test.spacy")

    @Language.component("two_noun_chunks")
    def two_noun_chunks(doc):  # one right, one cut short, and a VP that must not count
        doc.spans["chunks"] = [Span(doc, 0, 2, "NP"), Span(doc, 2, 3, "VP"), Span(doc, 3, 4, "NP")]
        return doc

    read_noun_chunks_from(nlp.vocab, "chunks")
    nlp.add_pipe("two_noun_chunks")
    scores = evaluate_attributes._noun_chunk_scores(nlp, tmp_path / "test.spacy")
    assert scores == {"chunks": 2, "p": 50.0, "r": 50.0, "f": 50.0}
    result = {"pipeline": "x", "tokens": 1, "tag": 1, "pos": 1, "lemma": 1, "lemma_ci": 1}
    assert "| 1.00 | 50.00 |" in evaluate_attributes.table([{**result, "noun_chunks": scores}])


def _parser_pipeline(path: Path) -> Path:
    """A pipeline with an initialized (untrained) senna_parser, saved to `path`."""
    from spacy.training import Example

    from spacy_senna.corpora.converters.trees import tree_doc
    from spacy_senna.corpora.readers import copy_inputs, gold_tokens
    from spacy_senna.syntax.trees import parse_tree

    nlp = spacy.blank("en")
    nlp.add_pipe("senna_parser")
    reference = tree_doc(nlp.vocab, parse_tree("( (S (NP (DT The) (NN cat)) (VP (VBD sat))))"))
    example = Example(gold_tokens(reference), reference)
    copy_inputs(example, ["tag_"])
    nlp.initialize(lambda: [example])
    nlp.to_disk(path)
    return path


def test_add_parser_adds_it_disabled_in_float16_and_writes_only_its_files(
    load_script, pipeline_dir, tmp_path
):
    add_parser = load_script(PROJECT / "scripts" / "add_parser.py")
    target = tmp_path / "en_senna"
    shutil.copytree(pipeline_dir, target)
    before = {p: p.read_bytes() for p in target.rglob("*") if p.is_file()}
    weights = spacy.load(target).config["training"]["score_weights"]
    parser = _parser_pipeline(tmp_path / "parser")
    metrics = tmp_path / "metrics.json"
    metrics.write_text('{"parse": {"parse_f": 0.5}}', encoding="utf8")
    for _ in range(2):  # run again: the parser is replaced, not added twice
        add_parser.add_parser_to_disk(target, parser, "float16", metrics)
    nlp = spacy.load(target)
    assert nlp.disabled == ["senna_parser"] and nlp.component_names[-1] == "senna_parser"
    assert nlp.meta["performance"]["parse"] == {"parse_f": 0.5}
    assert nlp.meta["description"].count("senna_parser") == 1
    kept = {**weights, "parse_f": 0.0, "parse_p": 0.0, "parse_r": 0.0}
    assert nlp.config["training"]["score_weights"] == kept
    stored = (target / "senna_parser" / "model").stat().st_size
    assert stored < 0.6 * (parser / "senna_parser" / "model").stat().st_size
    changed = {
        p.relative_to(target).parts[0]
        for p in target.rglob("*")
        if p.is_file() and before.get(p) != p.read_bytes()
    }
    assert changed == {"config.cfg", "meta.json", "senna_parser"}
    nlp.enable_pipe("senna_parser")
    doc = nlp("The cat sat.")
    # a tree over the sentence (an untrained parser's spanning node, or the root it adds)
    assert [(s.start, s.end) for s in doc.spans["constituents"]][:1] == [(0, len(doc))]


def test_evaluate_names_a_missing_test_file(load_script, pipeline_dir, tmp_path):
    evaluate_open = load_script(PROJECT / "scripts" / "evaluate_open.py")
    missing = tmp_path / "pt_test.spacy"
    with pytest.raises(SystemExit, match="pt_test.spacy not found: give this pipeline's"):
        evaluate_open.evaluate(str(pipeline_dir), missing, missing, missing)
