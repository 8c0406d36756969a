"""annotate --gpu-id: passed to spacy.require_gpu; checked where a GPU is available."""

import pytest
from thinc.util import gpu_is_available

from spacy_senna.annotate import AnnotateSettings, annotate

TEXT = "John Smith visited Paris today.\nAcme Corp hired Anna Lee and left London.\n"


@pytest.mark.skipif(not gpu_is_available(), reason="needs a GPU usable by spaCy (cupy)")
def test_gpu_annotation_matches_cpu(pipeline_dir, write, tmp_path):
    path = str(write("a.txt", TEXT))
    cpu = annotate(str(pipeline_dir), [path], tmp_path / "cpu")
    gpu = annotate(str(pipeline_dir), [path], tmp_path / "gpu", AnnotateSettings(gpu_id=0))
    assert gpu.words == cpu.words and not gpu.failures
    name = "a.txt.00000.senna"
    assert (tmp_path / "gpu" / name).read_bytes() == (tmp_path / "cpu" / name).read_bytes()


@pytest.mark.skipif(gpu_is_available(), reason="checks the error shown without a GPU")
def test_gpu_id_without_a_gpu_is_a_clear_error(pipeline_dir, write, tmp_path):
    with pytest.raises(ValueError, match="Cannot use GPU 0"):
        annotate(
            str(pipeline_dir),
            [str(write("a.txt", TEXT))],
            tmp_path / "out",
            AnnotateSettings(gpu_id=0),
        )


class PoolStarted(Exception):
    pass


def test_gpu_with_several_processes_always_starts_fresh_ones(
    pipeline_dir, write, tmp_path, monkeypatch
):
    # spaCy's multiprocessing (a single shard on the CPU) forks, and CUDA does not survive
    # a fork: on a GPU even one shard goes to the pool, whose processes are spawned
    import spacy_senna.annotate.backends.pool as pool

    def started(pipeline, shards, output_dir, settings, progress, loaded):
        raise PoolStarted(len(shards), settings.gpu_id)

    monkeypatch.setattr(pool, "run_pool", started)
    settings = AnnotateSettings(gpu_id=0, n_process=2)
    with pytest.raises(PoolStarted) as raised:
        annotate(str(pipeline_dir), [str(write("a.txt", TEXT))], tmp_path / "out", settings)
    assert raised.value.args == (1, 0)


@pytest.mark.slow
@pytest.mark.skipif(gpu_is_available(), reason="checks the error shown without a GPU")
def test_gpu_workers_without_a_gpu_stop_the_run_with_a_clear_error(pipeline_dir, write, tmp_path):
    inputs = [str(write(f"{n}.txt", TEXT)) for n in range(2)]
    settings = AnnotateSettings(gpu_id=0, n_process=2)
    with pytest.raises(ValueError, match="Cannot use GPU 0"):
        annotate(str(pipeline_dir), inputs, tmp_path / "out", settings)


@pytest.mark.skipif(not gpu_is_available(), reason="needs a GPU usable by spaCy (cupy)")
def test_two_processes_on_one_gpu_write_what_one_writes(pipeline_dir, write, tmp_path):
    inputs = [str(write(f"{n}.txt", TEXT * 20)) for n in range(3)]
    one = annotate(str(pipeline_dir), inputs, tmp_path / "one", AnnotateSettings(gpu_id=0))
    two = annotate(
        str(pipeline_dir), inputs, tmp_path / "two", AnnotateSettings(gpu_id=0, n_process=2)
    )
    assert one.words == two.words > 0 and not two.failures
    for n in range(3):
        name = f"{n}.txt.00000.senna"
        assert (tmp_path / "two" / name).read_bytes() == (tmp_path / "one" / name).read_bytes()
