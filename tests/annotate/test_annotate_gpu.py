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


def test_gpu_with_several_local_processes_is_refused(pipeline_dir, write, tmp_path):
    settings = AnnotateSettings(gpu_id=0, n_process=2)
    with pytest.raises(ValueError, match="--gpu-id with --n-process > 1"):
        annotate(str(pipeline_dir), [str(write("a.txt", TEXT))], tmp_path / "out", settings)
