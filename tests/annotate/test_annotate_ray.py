"""annotate --backend ray on a local 2-CPU Ray cluster: same bytes as one process."""

import pytest

from spacy_senna.annotate import AnnotateSettings, annotate

ray = pytest.importorskip("ray")

pytestmark = pytest.mark.slow

LINES = (
    "John Smith visited Paris today.\n"
    "Mary saw the big house in Berlin.\n"
    "Acme Corp hired Anna Lee and left London.\n"
) * 30


def test_unreachable_cluster_is_a_clear_error(pipeline_dir, write, tmp_path):
    if ray.is_initialized():
        pytest.skip("runs before the module's cluster starts")
    settings = AnnotateSettings(backend="ray", n_process=1, address="127.0.0.1:1")
    with pytest.raises(ValueError, match="Could not start the Ray cluster at 127.0.0.1:1"):
        annotate(str(pipeline_dir), [str(write("a.txt", LINES))], tmp_path / "out", settings)


@pytest.fixture(scope="module")
def cluster():
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield
    ray.shutdown()


def outputs(directory):
    return {
        p.relative_to(directory).as_posix(): p.read_bytes()
        for p in sorted(directory.rglob("*"))
        if p.is_file() and p.name != "annotate.json"
    }


@pytest.mark.parametrize("fmt", ["senna", "jsonl", "spacy"])
def test_ray_output_equals_single_process_output(cluster, pipeline_dir, write, tmp_path, fmt):
    inputs = [str(write(f"{n}.txt", LINES)) for n in range(3)] + [str(write("empty.txt", ""))]
    local = AnnotateSettings(format=fmt, shard_bytes=1500, batch_size=16)
    on_ray = AnnotateSettings(
        format=fmt, shard_bytes=1500, batch_size=16, backend="ray", n_process=2
    )
    single = annotate(str(pipeline_dir), inputs, tmp_path / "local", local)
    distributed = annotate(str(pipeline_dir), inputs, tmp_path / "ray", on_ray)
    assert not single.failures and not distributed.failures
    assert distributed.words == single.words == 3 * 30 * 23
    assert distributed.workers == 2 and distributed.worker_peak_rss_mib > 0
    expected = outputs(tmp_path / "local")
    assert len(expected) > 8 and outputs(tmp_path / "ray") == expected


def test_ray_reports_a_bad_shard_and_writes_the_others(cluster, pipeline_dir, write, tmp_path):
    good = write("good.txt", LINES)
    bad = write("bad.txt", b"fine line\n\xff\xfe broken\n")
    settings = AnnotateSettings(backend="ray", n_process=2)
    summary = annotate(str(pipeline_dir), [str(good), str(bad)], tmp_path / "out", settings)
    assert [source for source, _ in summary.failures] == [str(bad)]
    assert "not UTF-8 at byte offset 10" in summary.failures[0][1]
    assert list(outputs(tmp_path / "out")) == ["good.txt.00000.senna"]
    again = annotate(str(pipeline_dir), [str(good)], tmp_path / "out", settings)
    assert (again.shards_done, again.shards_skipped) == (0, 1)


def test_too_many_workers_for_the_cluster_is_a_clear_error(cluster, pipeline_dir, write, tmp_path):
    settings = AnnotateSettings(backend="ray", n_process=8)
    with pytest.raises(ValueError, match="need 8 CPUs; the cluster has 2"):
        annotate(str(pipeline_dir), [str(write("a.txt", LINES))], tmp_path / "out", settings)
