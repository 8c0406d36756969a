"""The built sdist and wheel: complete, with their metadata, and installable as a requirement.

The distributions are built from this checkout with `python -m build --no-isolation` (no
package index needed); the `spacy package` test installs a packaged pipeline into a fresh
virtual environment whose only source for spacy-senna is that wheel.
"""

import configparser
import email.parser
import importlib
import importlib.metadata
import json
import os
import re
import subprocess
import sys
import sysconfig
import tarfile
import zipfile
from pathlib import Path

import pytest
from spacy.lang.en import English
from spacy.training import Example

import spacy_senna

REPOSITORY = Path(__file__).resolve().parent.parent
# no pip index: nothing here may need the network
OFFLINE = {
    **{k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")},
    "PIP_NO_INDEX": "1",
    "PIP_DISABLE_PIP_VERSION_CHECK": "1",
}


def run(*args, cwd):
    result = subprocess.run(args, capture_output=True, text=True, env=OFFLINE, cwd=cwd)
    assert result.returncode == 0, f"{args}\n{result.stdout}\n{result.stderr}"
    return result.stdout


@pytest.fixture(scope="module")
def dist(tmp_path_factory):
    """sdist and wheel of this checkout, in a fresh folder."""
    out = tmp_path_factory.mktemp("dist")
    run(sys.executable, "-m", "build", "--no-isolation", "--outdir", str(out), ".", cwd=REPOSITORY)
    return out


def only(folder: Path, pattern: str) -> Path:
    found = sorted(folder.glob(pattern))
    assert len(found) == 1, (pattern, found)
    return found[0]


def package_files() -> set[str]:
    """Every file of the package in the checkout, as a path from the repository root."""
    return {
        path.relative_to(REPOSITORY).as_posix()
        for path in (REPOSITORY / "spacy_senna").rglob("*")
        if path.is_file() and "__pycache__" not in path.parts and path.suffix != ".pyc"
    }


def test_wheel_holds_every_file_of_the_package(dist):
    with zipfile.ZipFile(only(dist, "*.whl")) as wheel:
        shipped = {name for name in wheel.namelist() if name.startswith("spacy_senna/")}
    expected = package_files()
    assert "spacy_senna/__init__.py" in expected
    assert shipped == expected, {
        "missing": sorted(expected - shipped),
        "extra": sorted(shipped - expected),
    }


def test_sdist_holds_the_package_readme_and_license(dist):
    sdist = only(dist, "*.tar.gz")
    root = sdist.name.removesuffix(".tar.gz")
    with tarfile.open(sdist) as archive:
        names = {name.removeprefix(f"{root}/") for name in archive.getnames()}
    assert package_files() <= names, sorted(package_files() - names)
    assert {"README.md", "LICENSE", "pyproject.toml", "setup.py", "PKG-INFO"} <= names


def test_wheel_metadata(dist):
    wheel_path = only(dist, "*.whl")
    with zipfile.ZipFile(wheel_path) as wheel:
        name, version = wheel_path.name.split("-")[:2]
        info = f"{name}-{version}.dist-info"
        meta = email.parser.Parser().parsestr(wheel.read(f"{info}/METADATA").decode())
        license_text = wheel.read(f"{info}/licenses/LICENSE").decode()
    assert meta["Name"] == "spacy-senna"
    assert meta["Version"] == spacy_senna.__version__
    assert meta["License-Expression"] == "MIT"
    assert license_text == (REPOSITORY / "LICENSE").read_text()
    assert license_text.startswith("MIT License")
    assert "Copyright (c) 2026 spacy-senna contributors" in license_text
    assert meta["Requires-Python"]
    requires = meta.get_all("Requires-Dist")
    assert any(r.startswith("torch") for r in requires)
    assert any(r.startswith("spacy") for r in requires)
    assert "build" in {r.split(";")[0].strip() for r in requires if 'extra == "test"' in r}
    assert meta.get_payload().startswith("# spacy-senna")


def test_every_entry_point_of_the_wheel_loads(dist):
    with zipfile.ZipFile(only(dist, "*.whl")) as wheel:
        name = next(n for n in wheel.namelist() if n.endswith(".dist-info/entry_points.txt"))
        parser = configparser.ConfigParser()
        parser.optionxform = str
        parser.read_string(wheel.read(name).decode())
    groups = ["spacy_factories", "spacy_architectures", "spacy_scorers", "spacy_readers"]
    assert {*groups, "spacy_misc"} <= set(parser.sections())
    assert {"senna_tagger", "senna_chunker", "senna_ner", "senna_srl"} <= set(
        parser["spacy_factories"]
    )
    for group in parser.sections():
        for entry, target in parser[group].items():
            point = importlib.metadata.EntryPoint(entry, target, group)
            assert callable(point.load()), (group, entry, target)
    registered = {
        (f"spacy_{group}", name)
        for path in (REPOSITORY / "spacy_senna").rglob("*.py")
        for group, name in re.findall(
            r'registry\.(\w+)\(\s*"(spacy-senna\.[^"]+)"', path.read_text(encoding="utf8")
        )
    }
    assert registered, "no registered functions found"
    missing = {(g, n) for g, n in registered if g not in parser or n not in parser[g]}
    assert not missing, f"registered but not entry points (spacy train needs --code): {missing}"


def venv_without_spacy_senna(root: Path) -> Path:
    """A fresh virtual environment that sees this environment's packages, but not spacy-senna.

    It gets no copies: a .pth file points at a folder of links to this environment's
    site-packages entries, less those of the installed spacy-senna distribution. Returns
    the environment's python.
    """
    run(sys.executable, "-m", "venv", "--without-pip", str(root / "venv"), cwd=root)
    python = root / "venv" / "bin" / "python"
    own = set()
    try:
        files = importlib.metadata.distribution("spacy-senna").files or []
        own = {f.parts[0] for f in files if f.parts[0] != ".."}
    except importlib.metadata.PackageNotFoundError:
        pass
    inherited = root / "inherited"
    inherited.mkdir()
    for entry in Path(sysconfig.get_paths()["purelib"]).iterdir():
        if entry.name not in own and not entry.name.startswith("spacy_senna"):
            (inherited / entry.name).symlink_to(entry)
    code = "import sysconfig; print(sysconfig.get_paths()['purelib'])"
    site_packages = Path(run(str(python), "-c", code, cwd=root).strip())
    (site_packages / "inherited.pth").write_text(f"{inherited}\n")
    return python


@pytest.mark.slow
def test_spacy_package_installs_with_spacy_senna_from_the_wheel(dist, tmp_path):
    """`spacy package` a tiny trained senna_tagger; pip resolves its spacy-senna requirement
    from the wheel (--find-links, no --no-deps) in a fresh environment; spacy.load it there."""
    nlp = English()
    nlp.add_pipe("senna_tagger", config={"model": {"hidden_width": 16}})
    data = [
        ("I like green eggs", ["PRP", "VBP", "JJ", "NNS"]),
        ("Eat blue ham", ["VB", "JJ", "NN"]),
    ]
    examples = [Example.from_dict(nlp.make_doc(t), {"tags": tags}) for t, tags in data]
    optimizer = nlp.initialize(lambda: examples)
    for _ in range(20):
        nlp.update(examples, sgd=optimizer)
    texts = ["I like green eggs", "Eat blue ham", "Qzxv eggs"]
    expected = [[t.tag_ for t in doc] for doc in nlp.pipe(texts)]
    nlp.to_disk(tmp_path / "model")
    (tmp_path / "packages").mkdir()

    package_cmd = [sys.executable, "-m", "spacy", "package", "model", "packages", "--force"]
    options = ["--name", "senna_tiny", "--version", "0.0.1", "--build", "none"]
    output = run(*package_cmd, *options, cwd=tmp_path)
    assert "without the 'build' package" not in output, output
    package = tmp_path / "packages" / "en_senna_tiny-0.0.1"
    meta = json.loads((package / "meta.json").read_text())
    assert any(r.startswith("spacy-senna>=") for r in meta["requirements"]), meta
    # what `spacy package` runs, without an isolated build environment (no index here)
    run(sys.executable, "-m", "build", "--sdist", "--no-isolation", str(package), cwd=tmp_path)
    sdist = only(package / "dist", "en_senna_tiny-0.0.1.tar.gz")

    python = venv_without_spacy_senna(tmp_path)
    find = "import importlib.util as u; print(u.find_spec('spacy_senna'), u.find_spec('spacy'))"
    before = run(str(python), "-c", find, cwd=tmp_path)
    assert before.startswith("None ") and "spacy" in before.split(" ", 1)[1], before
    pip = [str(python), "-m", "pip", "install", "--no-index", "--no-build-isolation"]
    run(*pip, "--find-links", str(dist), "--only-binary", "spacy-senna", str(sdist), cwd=tmp_path)
    code = (
        "import json, spacy, spacy_senna, importlib.metadata as md, sys\n"
        "nlp = spacy.load('en_senna_tiny')\n"
        "print(json.dumps({'tags': [[t.tag_ for t in d] for d in nlp.pipe(%r)],\n"
        "    'module': spacy_senna.__file__, 'prefix': sys.prefix,\n"
        "    'version': md.version('spacy-senna'), 'pipeline': md.version('en_senna_tiny')}))"
        % (texts,)
    )
    loaded = json.loads(run(str(python), "-c", code, cwd=tmp_path))
    assert loaded["tags"] == expected
    assert (loaded["version"], loaded["pipeline"]) == (spacy_senna.__version__, "0.0.1")
    assert Path(loaded["module"]).is_relative_to(loaded["prefix"]), loaded
    assert Path(loaded["prefix"]).resolve() == (tmp_path / "venv").resolve()
