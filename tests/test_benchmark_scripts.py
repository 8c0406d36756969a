"""The benchmark project's helper scripts: step timing, the results collector, the SRL
props writer, the time split, the parser speed, the corpus reading, the host syncs."""

import gzip
import json
import subprocess
import sys
from pathlib import Path

import pytest
from spacy.lang.en import English
from spacy.tokens import Doc, DocBin, Span
from thinc.api import Model

from spacy_senna.bundled import bundled_path
from spacy_senna.corpora.converters import read_conll2005
from spacy_senna.srl.frames import frame_chunks

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"


def test_timed_records_wall_time_peak_memory_and_exit_code(tmp_path):
    timings = tmp_path / "metrics" / "timings.json"
    ok = [sys.executable, str(BENCHMARKS / "project" / "timed.py"), str(timings), "step-a", "--"]
    assert subprocess.run([*ok, sys.executable, "-c", "pass"]).returncode == 0
    big = [sys.executable, str(BENCHMARKS / "project" / "timed.py"), str(timings), "step-big", "--"]
    allocate = "b = bytearray(300 * 2**20); b[::4096] = b'x' * len(b[::4096])"
    assert subprocess.run([*big, sys.executable, "-c", allocate]).returncode == 0
    failing = [
        sys.executable,
        str(BENCHMARKS / "project" / "timed.py"),
        str(timings),
        "step-b",
        "--",
    ]
    code = "import sys; sys.exit(3)"
    assert subprocess.run([*failing, sys.executable, "-c", code]).returncode == 3
    recorded = json.loads(timings.read_text())
    assert set(recorded) == {"step-a", "step-b", "step-big"}
    assert recorded["step-big"]["peak_rss_mib"] >= 300
    assert recorded["step-b"]["returncode"] == 3
    assert recorded["step-a"]["seconds"] >= 0
    assert "-c pass" in recorded["step-a"]["command"]


def test_collect_results_reports_missing_runs(tmp_path, load_script):
    collect_results = load_script(BENCHMARKS / "project" / "collect_results.py")
    (tmp_path / "metrics").mkdir()
    (tmp_path / "speed").mkdir()
    (tmp_path / "metrics" / "ner-testb.json").write_text(json.dumps({"ents_f": 0.8234}))
    speed = {
        "data": "test.spacy",
        "compare_speed": {"senna_wps": 30000.0, "baseline_wps": 10000.0, "ratio": 3.0},
        "benchmark_speed": {
            "senna": {"pipeline": "a", "wps": 1.0, "ci": "", "peak_rss_mib": 500.0},
            "baseline": {"pipeline": "b", "wps": 1.0, "ci": "", "peak_rss_mib": 1300.0},
        },
    }
    (tmp_path / "speed" / "ner.json").write_text(json.dumps(speed))
    timing = {"command": "x", "seconds": 120.0, "peak_rss_mib": 2048, "finished": "t"}
    (tmp_path / "metrics" / "timings.json").write_text(json.dumps({"ner-train": timing}))
    results = collect_results.collect(tmp_path)
    by_file = {row["metrics"]: row for row in results["accuracy"]}
    assert by_file["ner-testb.json"]["ours"] == 82.34
    assert by_file["ner-testb.json"]["paper"] == 81.47
    assert by_file["pos-test.json"]["ours"] is None
    markdown = collect_results.to_markdown(results)
    assert "| NER (CoNLL-2003 testb, F1) | senna SLL | 82.34 | 81.47 | NN+SLL |" in markdown
    assert "not run" in markdown
    assert "| 3.00x | 500 | 1,300 |" in markdown
    assert "| ner-train | 2.0 | 2,048 | t |" in markdown


def test_srl_props_files_read_back_as_the_same_frames(tmp_path, load_script):
    srl_eval = load_script(BENCHMARKS / "accuracy" / "srl_eval.py")
    vocab = English().vocab
    words = "Prices , he said , fell sharply today".split()
    doc = Doc(vocab, words=words)
    doc.spans["srl_predicates"] = [Span(doc, 3, 4, label="say"), Span(doc, 5, 6, label="fall")]
    frames = {
        3: [("A1", 0, 1), ("A0", 2, 3), ("V", 3, 4), ("C-A1", 5, 8)],
        5: [("A1", 0, 1), ("V", 5, 6), ("AM-MNR", 6, 7), ("AM-TMP", 7, 8)],
    }
    for predicate, arguments in frames.items():
        doc.spans[f"srl:{predicate}"] = [Span(doc, s, e, label=lab) for lab, s, e in arguments]
    lines = srl_eval.props_lines(doc, frame_chunks(doc))
    assert lines[2:4] == ["- (A0*) *", "say (V*) *"] and lines[-1] == ""
    no_verb = srl_eval.props_lines(Doc(vocab, words=["Hello", "!"]), {})
    assert no_verb == ["-", "-", ""]
    conll = [f"{w} NN * * - {props}" for w, props in zip(words, lines)]
    path = tmp_path / "props.txt"
    path.write_text("\n".join(conll) + "\n")
    [read] = read_conll2005(path, vocab)
    assert [(s.start, s.label_) for s in read.spans["srl_predicates"]] == [(3, "say"), (5, "fall")]
    for predicate, arguments in frames.items():
        read_frame = [(s.label_, s.start, s.end) for s in read.spans[f"srl:{predicate}"]]
        assert sorted(read_frame, key=lambda a: a[1]) == sorted(arguments, key=lambda a: a[1])


def test_lm_parallel_variants_and_text_slice(tmp_path, load_script):
    lm_parallel = load_script(BENCHMARKS / "lm" / "lm_parallel.py")
    assert lm_parallel.parse_variant("2x1") == {"workers": 2, "threads": 1, "batch_size": 1024}
    assert lm_parallel.parse_variant("1x2@4096") == {
        "workers": 1,
        "threads": 2,
        "batch_size": 4096,
    }
    source = tmp_path / "text.txt.gz"
    with gzip.open(source, "wt", encoding="utf8") as out:
        out.write("one two three\nfour five\nsix seven eight nine\n")
    target = tmp_path / "slice.txt"
    assert lm_parallel.write_slice(source, target, words=4) == 5
    assert target.read_text(encoding="utf8") == "one two three\nfour five\n"


def test_lm_parallel_continues_a_copy_of_a_finished_run(tmp_path, load_script):
    from spacy_senna.lm.pretrain import pretrain
    from spacy_senna.lm.settings import PretrainConfig

    lm_parallel = load_script(BENCHMARKS / "lm" / "lm_parallel.py")
    text = tmp_path / "text.txt"
    text.write_text("the cat sees a dog in the garden .\n" * 400, encoding="utf8")
    run = tmp_path / "lm"
    settings = {"vocab_size": 20, "batch_size": 32, "validation_words": 50, "epochs": 0}
    config = PretrainConfig(**settings, max_words=2000, progress=False, threads=1)
    before = pretrain([text], run, config)
    variant = lm_parallel.parse_variant("1x1")
    result = lm_parallel.continue_variant(run, tmp_path / "copy", variant, extra_seconds=1.0)
    assert result["words"] > 0 and result["words_per_second"] > 0
    assert (tmp_path / "copy.checkpoints" / "corpus").is_symlink()
    after = json.loads((run / "lm_meta.json").read_text(encoding="utf8"))
    assert after["words_seen"] == before["words_seen"]  # the original is untouched


def test_lm_parallel_names_what_a_run_to_continue_lacks(tmp_path, capsys, load_script):
    lm_parallel = load_script(BENCHMARKS / "lm" / "lm_parallel.py")
    (tmp_path / "lm").mkdir()
    with pytest.raises(SystemExit) as stop:
        lm_parallel.main(["--continue-run", str(tmp_path / "lm")])
    assert stop.value.code == 2
    assert "lm_meta.json is missing" in capsys.readouterr().err


def test_time_split_finds_each_part_and_leaves_the_functions_as_they_were(tmp_path, load_script):
    predict = Model.__dict__["predict"]
    data = tmp_path / "docs.spacy"
    words = ["Angela Merkel visited Paris on Monday .".split(), "He sold the old house .".split()]
    DocBin(docs=[Doc(English().vocab, words=w) for w in words]).to_disk(data)
    output = tmp_path / "split.json"
    script = load_script(BENCHMARKS / "speed" / "time_split.py")
    argv = ["time_split.py", str(bundled_path()), str(data), "--rounds", "1", "--json", str(output)]
    for read in (False, True):
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(sys, "argv", argv + ["--read-scores"] * read)
            script.main()
        assert Model.__dict__["predict"] is predict
        split = json.loads(output.read_text())
        assert split["words"] == 13
        parts = split["components"]
        for name in ("senna_tagger", "senna_chunker", "senna_ner", "senna_srl"):
            assert parts[name]["featurize"] > 0 and parts[name]["network"] > 0, name
            assert parts[name]["decode"] > 0, name
            # computed when read: nothing unless read
            assert (parts[name]["span probabilities"] > 0) == (read and name != "senna_tagger")
    with pytest.MonkeyPatch.context() as patch:  # the parser reads its levels from arrays
        patch.setattr(sys, "argv", argv + ["--enable", "senna_parser"])
        script.main()
    parsing = json.loads(output.read_text())["components"]["senna_parser"]
    assert parsing["featurize"] > 0 and parsing["network"] > 0 and parsing["decode"] > 0
    assert sum(parsing[part] for part in script.PARTS) == pytest.approx(parsing["total"])


def test_same_outputs_finds_a_changed_label_and_a_changed_probability(tmp_path, load_script):
    script = load_script(BENCHMARKS / "accuracy" / "same_outputs.py")
    texts = tmp_path / "texts.txt"
    texts.write_text("Angela Merkel visited Paris on Monday.\nHe sold the old house.\n")
    first, second = tmp_path / "a.json", tmp_path / "b.json"
    script.dump(str(bundled_path()), texts, first, 256, ["senna_parser"], True)
    script.dump(str(bundled_path()), texts, second, 256, ["senna_parser"], True)
    a, b = (json.loads(p.read_text()) for p in (first, second))
    same = script.compare(a, b)
    assert same["same_labels"] and same["scores"] > 0 and same["largest"] == 0
    assert same["identical_bytes"] == same["single"]["identical_bytes"] == 2
    assert same["single"]["same_labels"]
    b[0]["bytes"] = "0" * 40
    b[0]["single"]["ents"] = []
    changed = script.compare(a, b)
    assert changed["identical_bytes"] == 1 and not changed["single"]["same_labels"]
    b[0]["groups"]["senna_ents"][1][0] += 0.25
    assert script.compare(a, b)["largest"] >= 0.25 - 1e-5
    b[1]["tags"][0] = "XX"
    assert not script.compare(a, b)["same_labels"]


def test_parse_propagation_scores_levels_given_gold_and_own_trees(load_script):
    """A parser that learnt its trees scores 1.0 both ways; untrained, below 1.0."""
    from spacy.training import Example
    from spacy.util import fix_random_seed

    from spacy_senna.corpora.converters.trees import tree_doc
    from spacy_senna.corpora.readers import copy_inputs, gold_tokens
    from spacy_senna.syntax.trees import parse_tree

    script = load_script(BENCHMARKS / "accuracy" / "parse_propagation.py")
    trees = [
        "( (S (NP (DT The) (NN cat)) (VP (VBD sat) (PP (IN on) (NP (DT the) (NN mat)))) (. .)))",
        "( (S (NP (PRP They)) (VP (VBP buy) (NP (NN growth) (NNS stocks))) (. .)))",
    ]
    fix_random_seed(0)
    nlp = English()
    nlp.add_pipe("senna_parser")
    references = [tree_doc(nlp.vocab, parse_tree(tree)) for tree in trees]
    examples = []
    for reference in references:
        examples.append(Example(gold_tokens(reference), reference))
        copy_inputs(examples[-1], ["tag_"])
    optimizer = nlp.initialize(lambda: examples)
    untrained = script.propagation(nlp, references)
    assert untrained["given_gold_levels"]["f"] < 1.0 and untrained["own_trees"]["f"] < 1.0
    for _ in range(60):
        nlp.update(examples, sgd=optimizer)
    scores = script.propagation(nlp, references)
    assert scores["given_gold_levels"]["f"] == scores["own_trees"]["f"] == 1.0
    assert scores["own_trees"]["n_gold"] == 9  # the two trees' nodes, the root included


def test_parser_speed_times_two_parsers_on_the_corpus_tags(tmp_path):
    """Both parsers read the corpus' tags (no warning of missing input) and each gets its
    words/s, with the ratio of the two."""
    from spacy.training import Example

    from spacy_senna.corpora.converters.trees import tree_doc
    from spacy_senna.corpora.readers import copy_inputs, gold_tokens
    from spacy_senna.syntax.trees import parse_tree

    tree = "( (S (NP (DT The) (NN cat)) (VP (VBD sat)) (. .)))"
    corpus = tmp_path / "trees.spacy"
    reference = tree_doc(English().vocab, parse_tree(tree))
    DocBin(docs=[reference] * 3).to_disk(corpus)
    for name in ("a", "b"):
        nlp = English()
        nlp.add_pipe("senna_parser")
        example = Example(gold_tokens(reference), reference)
        copy_inputs(example, ["tag_"])
        nlp.initialize(lambda: [example])
        nlp.to_disk(tmp_path / name)
    command = [sys.executable, str(BENCHMARKS / "speed" / "parser_speed.py"), str(tmp_path / "a")]
    command += [str(tmp_path / "b"), str(corpus), "--rounds", "2"]
    run = subprocess.run(command, capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    assert "tag_" not in run.stderr  # the parsers read the corpus' tags
    lines = run.stdout.splitlines()
    assert lines[0] == "12 words x 2 rounds"
    assert lines[1].startswith("A ") and lines[1].endswith("words/s")
    assert lines[3].startswith("A/B speed ratio (median of rounds): ")


def test_corpus_reading_times_both_decodings_of_the_same_pass(tmp_path):
    nlp = English()
    docs = [Doc(nlp.vocab, words=["The", "cat", "sat"], tags=["DT", "NN", "VBD"])] * 5
    for doc in docs:
        doc.spans["chunks"] = [doc[0:2]]
    DocBin(docs=docs).to_disk(tmp_path / "docs.spacy")
    command = [
        sys.executable,
        str(BENCHMARKS / "speed" / "corpus_reading.py"),
        str(tmp_path / "docs.spacy"),
    ]
    run = subprocess.run([*command, "--shuffle", "--rounds", "2"], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    assert lines[0] == "5 docs x 2 rounds"
    assert lines[1].startswith("DocBin.get_docs: ") and lines[1].endswith(" s a pass")
    assert lines[3].startswith("ratio (median of rounds): ")


def test_pipe_speed_records_a_run_and_compares_another_with_it(tmp_path):
    texts = tmp_path / "texts.txt"
    texts.write_text("Angela Merkel visited Paris on Monday.\n\nHe sold the old house.\n")
    first, script = tmp_path / "cpu.json", str(BENCHMARKS / "speed" / "pipe_speed.py")
    command = [sys.executable, script, str(texts), "--pipeline", str(bundled_path())]
    run = subprocess.run([*command, "--rounds", "1", "--json", str(first)], capture_output=True)
    assert run.returncode == 0, run.stderr
    recorded = json.loads(first.read_text())
    assert recorded["words"] == 13 and recorded["words_per_second"] > 0
    assert recorded["device"] == "cpu, one thread" and "senna_srl" in recorded["components"]
    command += ["--rounds", "1", "--exclude", "senna_srl", "--against", str(first)]
    run = subprocess.run(command, capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    assert "senna_srl" not in run.stdout
    assert run.stdout.splitlines()[-1].endswith(
        f"x cpu, one thread ({recorded['words_per_second']:,} words/s)"
    )


def test_pipe_speed_reads_the_words_of_a_docbin(tmp_path, load_script):
    script = load_script(BENCHMARKS / "speed" / "pipe_speed.py")
    data = tmp_path / "docs.spacy"
    words = ["Angela Merkel visited Paris on Monday .".split(), "He sold the old house .".split()]
    DocBin(docs=[Doc(English().vocab, words=w) for w in words]).to_disk(data)
    result = script.pipe_speed(str(bundled_path()), data, rounds=2)
    assert result["words"] == 13 and len(result["rounds"]) == 2
    assert result["load_seconds"] > 0 and result["peak_rss_mib"] > 0
    empty = tmp_path / "empty.txt"
    empty.write_text("\n")
    with pytest.raises(ValueError, match="holds no text"):
        script.pipe_speed(str(bundled_path()), empty, rounds=1)


def test_host_syncs_counts_the_calls_a_gpu_would_wait_for(load_script):
    from spacy_senna.layers import crf, crf_viterbi
    from spacy_senna.layers.transition_blocks import TransitionBlocks
    from spacy_senna.pipeline import batching

    script = load_script(BENCHMARKS / "speed" / "host_syncs.py")
    cpu_bound = batching.MAX_PREDICT_FLOATS
    pruned = TransitionBlocks._block_max_plus
    small = crf_viterbi.SMALL_VITERBI_FLOATS
    compiled = crf._decodes_compiled
    texts = ["Angela Merkel visited Paris on Monday.", "He sold the old house.", "Yes."]
    cpu = script.count_host_syncs(str(bundled_path()), texts, batch_size=2)
    gpu = script.count_host_syncs(str(bundled_path()), texts, batch_size=2, gpu_paths=True)
    assert cpu["batches"] == 2 and cpu["words"] == 15
    assert {"senna_tagger", "senna_srl"} <= set(cpu["per_component"])
    assert cpu["operations"]["senna_srl"] > cpu["per_component"]["senna_srl"]
    # the CPU decodes compiled, reading the scores once: the GPU's torch decoder steps
    assert gpu["per_component"]["senna_tagger"] > cpu["per_component"]["senna_tagger"]
    assert TransitionBlocks._block_max_plus is pruned
    assert crf_viterbi.SMALL_VITERBI_FLOATS == small and crf._decodes_compiled is compiled
    assert batching.MAX_PREDICT_FLOATS == cpu_bound
    assert any(line.startswith("layers/") for _, _, line in cpu["lines"])


def test_swap_ab_swaps_a_class_attribute_named_with_dots(load_script):
    from spacy_senna.runtime.last_call import LastCall

    script = load_script(BENCHMARKS / "speed" / "swap_ab.py")
    never = script.variant_value(f"{BENCHMARKS / 'speed' / 'ab_variants.py'}:nothing_kept")
    kept = LastCall()
    kept.keep("key", 1)
    assert never(kept, "key") is None and kept.get("key") == 1
    get = LastCall.get
    best = script.swap_ab(
        ["He sold the old house."],
        "spacy_senna.runtime.last_call",
        "LastCall.get",
        {"A": get, "B": never},
        rounds=1,
        pipeline=str(bundled_path()),
    )
    assert set(best) == {"A", "B"} and LastCall.get is get


def test_product_regimes_names_the_row_counts_whose_calls_differ(load_script, monkeypatch):
    import torch

    script = load_script(BENCHMARKS / "accuracy" / "product_regimes.py")
    linear = torch.nn.functional.linear

    def other_numbers_in_calls_of_three_rows(rows, weight, bias=None):
        out = linear(rows, weight, bias)
        return out + 1e-3 if rows.shape[0] == 3 else out

    monkeypatch.setattr(torch.nn.functional, "linear", other_numbers_in_calls_of_three_rows)
    counts = script.differing_row_counts(8, 4, torch.float32, max_rows=6, reference_rows=50)
    assert 3 in counts and all(1 <= count <= 6 for count in counts)
    assert script.as_ranges([9, 1, 2, 3, 5]) == [(1, 3), (5, 5), (9, 9)]


def test_call_latency_times_one_doc_at_a_time(load_script):
    script = load_script(BENCHMARKS / "speed" / "call_latency.py")
    texts = ["Angela Merkel visited Paris on Monday.", "He sold the old house."]
    pipeline = str(bundled_path())
    result = script.call_latency(texts, rounds=1, pipeline=pipeline, anchor=pipeline)
    assert result["docs"] == 2 and result["words"] == 13
    assert set(result["pipelines"]) == {"senna4", "senna3", "anchor_full", "anchor_tagger_ner"}
    assert "senna_srl" not in result["pipelines"]["senna3"]["components"]
    assert all(p["ms_per_doc"] > 0 for p in result["pipelines"].values())
    assert result["four"] > 0 and result["three"] > 0
    assert "split" not in result and result["unseen_after"] is None
    with pytest.raises(ValueError, match="No texts"):
        script.call_latency([], rounds=1, pipeline=pipeline, anchor=pipeline)


def test_call_latency_times_unseen_texts_on_pipelines_loaded_afresh(load_script, monkeypatch):
    script = load_script(BENCHMARKS / "speed" / "call_latency.py")
    pipeline = str(bundled_path())
    loads, load = [], script.spacy.load
    monkeypatch.setattr(script.spacy, "load", lambda *a, **k: loads.append(a) or load(*a, **k))
    result = script.call_latency(
        ["He sold the old house."], 2, pipeline, pipeline, warm=["Anna saw Paris."]
    )
    assert result["unseen_after"] == 1 and result["words"] == 6
    assert len(loads) == 4 + 2 * 4  # the four pipelines once, then afresh each round
    assert all(p["ms_per_doc"] > 0 for p in result["pipelines"].values())


def test_call_latency_splits_a_text_by_component(load_script):
    script = load_script(BENCHMARKS / "speed" / "call_latency.py")
    texts = ["Angela Merkel visited Paris on Monday.", "He sold the old house."]
    pipeline = str(bundled_path())
    result = script.call_latency(
        texts, rounds=1, pipeline=pipeline, anchor=pipeline, components=True
    )
    split = result["split"]["senna4"]
    assert list(split) == ["make_doc", *result["pipelines"]["senna4"]["components"]]
    assert all(ms >= 0 for ms in split.values()) and split["senna_srl"] > 0


def test_layer_flatness_times_each_layer_per_token_at_each_length(load_script):
    script = load_script(BENCHMARKS / "speed" / "layer_flatness.py")
    text = "Angela Merkel visited Paris on Monday. He sold the old house. " * 20
    times = script.layer_times(str(bundled_path()), text, [20, 80], ["senna_ner"], rounds=1)
    assert set(times) == {("senna_ner", 20), ("senna_ner", 80)}
    assert all(t > 0 for t in times.values())
    with pytest.raises(ValueError, match="fewer than"):
        script.layer_times(str(bundled_path()), "Too short.", [20], ["senna_ner"], rounds=1)


def test_swap_ab_times_two_versions_of_an_attribute_and_restores_it(load_script, tmp_path):
    from spacy_senna.layers import lstm_compiled

    script = load_script(BENCHMARKS / "speed" / "swap_ab.py")
    other = tmp_path / "other.py"
    other.write_text("def recurrence(*args):\n    raise RuntimeError('the B copy ran')\n")
    assert script.variant_value("800") == 800
    assert script.variant_value(f"{other}:recurrence").__name__ == "recurrence"
    texts = ["Angela Merkel visited Paris on Monday.", "He sold the old house."]
    bound = lstm_compiled.COMPILED_MAX_CELLS
    best = script.swap_ab(
        texts,
        "spacy_senna.layers.lstm_compiled",
        "COMPILED_MAX_CELLS",
        {"A": 0, "B": 2400},
        rounds=1,
        pipeline=str(bundled_path()),
    )
    assert set(best) == {"A", "B"} and all(seconds > 0 for seconds in best.values())
    assert lstm_compiled.COMPILED_MAX_CELLS == bound
    recurrence = lstm_compiled.recurrence
    with pytest.raises(RuntimeError, match="the B copy ran"):  # the swapped function is called
        script.swap_ab(
            texts,
            "spacy_senna.layers.lstm_compiled",
            "recurrence",
            {"A": recurrence, "B": script.variant_value(f"{other}:recurrence")},
            rounds=1,
            pipeline=str(bundled_path()),
        )
    assert lstm_compiled.recurrence is recurrence
