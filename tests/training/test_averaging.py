"""`average-weights`: the mean of the weights of trained copies of one pipeline."""

import pytest
import spacy
import torch
from spacy.lang.en import English

from spacy_senna.cli import main
from spacy_senna.training.averaging import average_weights, torch_modules


def _state(pipeline):
    return torch_modules(pipeline.get_pipe("senna_tagger").model)[0].state_dict()


def test_average_weights_takes_the_mean_of_every_weight(tmp_path, trained_tagger):
    """Two checkpoints of one tagger average to the mean of each tensor; a pipeline averaged
    with itself labels as before; pipelines with other labels are refused by name."""
    nlp, examples, optimizer = trained_tagger(10)
    nlp.to_disk(tmp_path / "a")
    for _ in range(10):
        nlp.update(examples, sgd=optimizer)
    nlp.to_disk(tmp_path / "b")

    a, b = _state(spacy.load(tmp_path / "a")), _state(spacy.load(tmp_path / "b"))
    averaged = average_weights([tmp_path / "a", tmp_path / "b"])
    mean = _state(averaged)
    assert averaged.meta["performance"] == {}
    assert averaged.meta["averaged_from"] == [str(tmp_path / "a"), str(tmp_path / "b")]
    assert any(not torch.equal(a[key], b[key]) for key in a)
    for key in a:
        if a[key].is_floating_point():
            assert torch.allclose(mean[key], (a[key] + b[key]) / 2)
    texts = [eg.reference.text for eg in examples]
    itself = average_weights([tmp_path / "a", tmp_path / "a"])
    original = spacy.load(tmp_path / "a")
    assert [[t.tag_ for t in doc] for doc in itself.pipe(texts)] == [
        [t.tag_ for t in doc] for doc in original.pipe(texts)
    ]

    other = English()
    other.add_pipe("senna_tagger").add_label("XX")
    other.initialize(lambda: examples)
    other.to_disk(tmp_path / "other")
    with pytest.raises(ValueError, match="other labels"):
        average_weights([tmp_path / "a", tmp_path / "other"])
    with pytest.raises(ValueError, match="two or more"):
        average_weights([tmp_path / "a"])


def test_average_weights_command_writes_into_new_folders(tmp_path, trained_tagger):
    """The averaged pipeline loads from the output path, its parents made as needed."""
    nlp, examples, _ = trained_tagger(3)
    nlp.to_disk(tmp_path / "a")
    output = tmp_path / "new" / "averaged"
    main(["average-weights", str(output), str(tmp_path / "a"), str(tmp_path / "a")])
    texts = [eg.reference.text for eg in examples]
    assert [[t.tag_ for t in doc] for doc in spacy.load(output).pipe(texts)] == [
        [t.tag_ for t in doc] for doc in nlp.pipe(texts)
    ]


def test_average_weights_command_refuses_other_components(tmp_path, capsys, trained_tagger):
    nlp, _, _ = trained_tagger(1)
    nlp.to_disk(tmp_path / "a")
    other = English()
    other.add_pipe("sentencizer")
    other.to_disk(tmp_path / "b")
    with pytest.raises(SystemExit):
        main(["average-weights", str(tmp_path / "out"), str(tmp_path / "a"), str(tmp_path / "b")])
    err = capsys.readouterr().err
    assert f"{tmp_path / 'b'}: components ['sentencizer'], not ['senna_tagger']" in err
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize(
    "folder, problem",
    [("missing", "does not exist"), ("empty", "holds no config.cfg")],
)
def test_average_weights_command_names_what_is_not_a_pipeline(
    tmp_path, capsys, trained_tagger, folder, problem
):
    nlp, _, _ = trained_tagger(1)
    nlp.to_disk(tmp_path / "a")
    (tmp_path / "empty").mkdir()
    with pytest.raises(SystemExit):
        main(
            ["average-weights", str(tmp_path / "out"), str(tmp_path / "a"), str(tmp_path / folder)]
        )
    assert (
        f"✘ {tmp_path / folder}: {problem}: pass a trained pipeline's folder"
        in capsys.readouterr().err
    )
