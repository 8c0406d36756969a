"""`resume-config`: a config that trains a trained pipeline further from its weights."""

import pytest
import spacy
from spacy.lang.en import English
from spacy.tokens import DocBin
from spacy.training.initialize import init_nlp
from spacy.util import load_model_from_config
from thinc.api import Config

from spacy_senna.cli import main
from spacy_senna.training.resume import resume_config


def test_resume_config_starts_from_the_trained_weights(tmp_path, trained_tagger):
    """The written config sources every component of the trained pipeline: initialized
    for training, it labels as the trained pipeline does, with the new schedule."""
    nlp, examples, _ = trained_tagger(20)
    nlp.to_disk(tmp_path / "trained")
    corpus = tmp_path / "train.spacy"
    DocBin(docs=[eg.reference for eg in examples]).to_disk(corpus)

    config = resume_config(tmp_path / "trained", 300, 0.0002, 50)
    assert config["training"]["max_steps"] == 300
    assert config["training"]["eval_frequency"] == 50
    assert config["training"]["optimizer"]["learn_rate"]["initial_rate"] == 0.0002
    assert config["training"]["optimizer"]["learn_rate"]["total_steps"] == 300
    config["paths"]["train"] = config["paths"]["dev"] = str(corpus)
    resumed = init_nlp(config)
    texts = [eg.reference.text for eg in examples]
    assert [[t.tag_ for t in doc] for doc in resumed.pipe(texts)] == [
        [t.tag_ for t in doc] for doc in nlp.pipe(texts)
    ]
    assert [t.tag_ for t in resumed(texts[0])] == [t.tag_ for t in examples[0].reference]


def test_resume_config_settings_change_a_copy_of_the_pipeline(tmp_path):
    """A sourced component keeps its pipeline's settings, so `--setting` sources a copy of
    the pipeline with the setting changed; the pipeline itself is left as it was."""
    nlp = English()
    nlp.add_pipe("senna_parser")
    nlp.to_disk(tmp_path / "trained")
    output = tmp_path / "resume.cfg"
    settings = {"senna_parser.explore": "0.5"}
    config = resume_config(tmp_path / "trained", 10, 0.0002, 5, settings, output)
    resumed = load_model_from_config(config, auto_fill=True)
    assert resumed.get_pipe("senna_parser").explore == 0.5
    assert spacy.load(tmp_path / "trained").get_pipe("senna_parser").explore == 0.0
    with pytest.raises(ValueError, match="senna_tagger"):
        resume_config(
            tmp_path / "trained", 10, 0.0002, 5, {"senna_tagger.overwrite": "true"}, output
        )


def test_resume_config_command_writes_the_config_into_new_folders(tmp_path, trained_tagger):
    nlp, _, _ = trained_tagger(2)
    nlp.to_disk(tmp_path / "trained")
    output = tmp_path / "new" / "folders" / "resume.cfg"
    main(
        [
            "resume-config",
            str(tmp_path / "trained"),
            str(output),
            "--steps",
            "40",
            "--rate",
            "0.001",
        ]
    )
    config = Config().from_disk(output, interpolate=False)
    assert config["components"]["senna_tagger"] == {"source": str((tmp_path / "trained").resolve())}
    assert config["training"]["max_steps"] == 40


@pytest.mark.parametrize(
    "args, message",
    [
        (["--steps", "0", "--rate", "0.001"], "--steps and --rate must be positive"),
        (["--steps", "10", "--rate", "0.001", "--setting", "explore"], "NAME.KEY=VALUE"),
    ],
)
def test_resume_config_command_refuses_bad_arguments(
    tmp_path, capsys, trained_tagger, args, message
):
    nlp, _, _ = trained_tagger(1)
    nlp.to_disk(tmp_path / "trained")
    with pytest.raises(SystemExit):
        main(["resume-config", str(tmp_path / "trained"), str(tmp_path / "r.cfg"), *args])
    assert message in capsys.readouterr().err


def test_resume_config_command_names_a_folder_that_is_not_a_pipeline(tmp_path, capsys):
    with pytest.raises(SystemExit):
        main(
            [
                "resume-config",
                str(tmp_path),
                str(tmp_path / "r.cfg"),
                "--steps",
                "5",
                "--rate",
                "0.1",
            ]
        )
    assert f"{tmp_path}: holds no config.cfg" in capsys.readouterr().err


def test_resume_config_command_names_a_missing_pipeline(tmp_path, capsys):
    with pytest.raises(SystemExit):
        main(
            [
                "resume-config",
                str(tmp_path / "nope"),
                str(tmp_path / "r.cfg"),
                "--steps",
                "5",
                "--rate",
                "0.1",
            ]
        )
    assert f"{tmp_path / 'nope'}: does not exist" in capsys.readouterr().err
