"""How the suite installs itself into the real engines' venvs (conformance.engines.selfinstall): from a
source tree editable, from an installed distribution as a wheel rebuilt from its files, never from
the package index (where this version is not published)."""

from __future__ import annotations

import base64
import hashlib
import importlib.metadata
import json
import os
import stat
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest
from support import REPO

import conformance
from conformance.engines import selfinstall, thirdparty
from conformance.engines.selfinstall import (
    ProjectSource,
    SelfInstallError,
    SourceKind,
    project_source,
    wheel_of,
)
from conformance.engines.thirdparty import InstallError, install

DIST_INFO = "draughts_conformance-9.9.dist-info"


def _digest(data: bytes) -> str:
    return base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()


def fake_installation(site: Path) -> importlib.metadata.Distribution:
    """A site-packages holding an installed draughts-conformance 9.9 as pip leaves it: packages,
    bytecode, a console script outside site-packages, and the installer's own records."""
    files = {
        "conformance/__init__.py": b"__version__ = '9.9'\n",
        "conformance/docs_data/rules.md": b"# The rulebook\n",
        "conformance/corpus_data/articles.yaml": b"articles: {}\n",
        "conformance/__pycache__/__init__.cpython-311.pyc": b"\x00bytecode",
        "oracle/__init__.py": b"",
        f"{DIST_INFO}/METADATA": b"Metadata-Version: 2.1\nName: draughts-conformance\nVersion: 9.9\nRequires-Dist: pyyaml\n",
        f"{DIST_INFO}/WHEEL": b"Wheel-Version: 1.0\nRoot-Is-Purelib: true\nTag: py3-none-any\n",
        f"{DIST_INFO}/entry_points.txt": b"[console_scripts]\ndraughts-conformance = conformance.cli.main:main\n",
        f"{DIST_INFO}/INSTALLER": b"pip\n",
        f"{DIST_INFO}/direct_url.json": b'{"url": "file:///somewhere/draughts_conformance-9.9-py3-none-any.whl"}',
        "../../../bin/draughts-conformance": b"#!/usr/bin/python\n",
    }
    record = []
    for name, data in files.items():
        path = site / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
        record.append(f"{name},sha256={_digest(data)},{len(data)}")
    (site / DIST_INFO / "RECORD").write_text("\n".join([*record, f"{DIST_INFO}/RECORD,,"]) + "\n")
    return importlib.metadata.Distribution.at(site / DIST_INFO)


def test_from_this_source_tree_the_suite_goes_in_editable() -> None:
    source = project_source()
    assert source == ProjectSource(SourceKind.SOURCE_TREE, REPO, conformance.__version__)
    assert source.editable_root == REPO
    assert source.pip_arguments(Path("/unused")) == ["-e", str(REPO)]
    assert source.description == f"draughts-conformance (editable, from {REPO})"


def test_from_an_installed_distribution_a_wheel_of_its_files(tmp_path: Path) -> None:
    site = tmp_path / "lib" / "python3.11" / "site-packages"
    distribution = fake_installation(site)
    source = project_source(site / "conformance" / "__init__.py", distribution)
    assert source.kind is SourceKind.INSTALLED
    assert source.location == site
    assert source.version == "9.9"
    assert source.editable_root is None
    assert "draughts-conformance 9.9 (a wheel of the installation in" in source.description

    (argument,) = source.pip_arguments(tmp_path / "work")
    wheel = Path(argument)
    assert wheel == tmp_path / "work" / "draughts_conformance-9.9-py3-none-any.whl"
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
        contents = {name: archive.read(name) for name in names}
    assert sorted(names) == sorted(
        [
            "conformance/__init__.py",
            "conformance/docs_data/rules.md",
            "conformance/corpus_data/articles.yaml",
            "oracle/__init__.py",
            f"{DIST_INFO}/METADATA",
            f"{DIST_INFO}/WHEEL",
            f"{DIST_INFO}/entry_points.txt",
            f"{DIST_INFO}/RECORD",
        ]
    )
    assert names[-1] == f"{DIST_INFO}/RECORD"
    assert contents["conformance/docs_data/rules.md"] == b"# The rulebook\n"
    record = contents[f"{DIST_INFO}/RECORD"].decode().splitlines()
    assert f"{DIST_INFO}/RECORD,," in record
    for line in record:
        name, digest, size = line.rsplit(",", 2)
        if name != f"{DIST_INFO}/RECORD":
            assert digest == f"sha256={_digest(contents[name])}", name
            assert int(size) == len(contents[name])


def test_a_wheel_without_tags_in_its_metadata_gets_the_pure_python_tag(tmp_path: Path) -> None:
    distribution = fake_installation(tmp_path / "site")
    (tmp_path / "site" / DIST_INFO / "WHEEL").write_bytes(b"Wheel-Version: 1.0\n")
    wheel = wheel_of(distribution, tmp_path / "out")
    assert wheel.name == "draughts_conformance-9.9-py3-none-any.whl"
    with zipfile.ZipFile(wheel) as archive:
        assert b"Tag: py3-none-any" in archive.read(f"{DIST_INFO}/WHEEL")


def test_a_missing_installed_file_is_named(tmp_path: Path) -> None:
    distribution = fake_installation(tmp_path / "site")
    (tmp_path / "site" / "oracle" / "__init__.py").unlink()
    with pytest.raises(SelfInstallError, match=r"incomplete: cannot read .*oracle/__init__\.py"):
        wheel_of(distribution, tmp_path / "out")


def test_a_distribution_without_the_running_package_is_refused(tmp_path: Path) -> None:
    distribution = fake_installation(tmp_path / "site")
    elsewhere = tmp_path / "copy" / "conformance" / "__init__.py"
    elsewhere.parent.mkdir(parents=True)
    elsewhere.write_text("")
    with pytest.raises(
        SelfInstallError, match="has its files elsewhere: two installations shadow each other"
    ):
        project_source(elsewhere, distribution)


def test_a_distribution_without_a_record_is_refused(tmp_path: Path) -> None:
    distribution = fake_installation(tmp_path / "site")
    (tmp_path / "site" / DIST_INFO / "RECORD").unlink()
    with pytest.raises(SelfInstallError, match="has no RECORD"):
        project_source(tmp_path / "site" / "conformance" / "__init__.py", distribution)


def test_a_package_neither_in_a_tree_nor_installed_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    package = tmp_path / "conformance" / "__init__.py"
    package.parent.mkdir()
    package.write_text("")

    def not_installed(name: str) -> importlib.metadata.Distribution:
        raise importlib.metadata.PackageNotFoundError(name)

    monkeypatch.setattr(selfinstall.importlib.metadata, "distribution", not_installed)
    with pytest.raises(
        SelfInstallError, match="neither a source tree nor part of an installed draughts-conformance"
    ):
        project_source(package)


# -- what `engines install` gives pip ---------------------------------------------------------------

RECORDING_VENV_MAKER = """
import os, shutil, sys
# 'python -m venv DIR': a venv whose python records its pip command line, keeps the wheels it is
# given in RECORDED/, and fails (no network, no engine is really installed)
args = [arg for arg in sys.argv[1:] if arg != "--clear"]
recorded = os.environ["RECORDED"]
python = os.path.join(args[2], "bin", "python")
os.makedirs(os.path.dirname(python), exist_ok=True)
with open(python, "w") as out:
    out.write(f'''#!{sys.executable}
import json, os, shutil, sys
if "-c" in sys.argv:  # the status probe: nothing is installed
    sys.exit("no such module")
os.makedirs({recorded!r}, exist_ok=True)
with open(os.path.join({recorded!r}, "pip.json"), "w") as log:
    json.dump(sys.argv[1:], log)
for arg in sys.argv[1:]:
    if arg.endswith(".whl"):
        shutil.copy(arg, {recorded!r})
print("ERROR: recorded, not installed")
sys.exit(3)
''')
os.chmod(python, 0o755)
"""


def recording_python(tmp_path: Path) -> Path:
    maker = tmp_path / "fake-python"
    maker.write_text(f"#!{sys.executable}\n{RECORDING_VENV_MAKER}", encoding="utf-8")
    maker.chmod(maker.stat().st_mode | stat.S_IXUSR)
    return maker


def test_install_from_an_installed_distribution_gives_pip_a_wheel_not_the_index(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    distribution = fake_installation(tmp_path / "site")
    installed = project_source(tmp_path / "site" / "conformance" / "__init__.py", distribution)
    monkeypatch.setattr(thirdparty, "expected_project", lambda: installed)
    monkeypatch.setenv("RECORDED", str(tmp_path / "recorded"))
    said: list[str] = []
    with pytest.raises(InstallError, match="exit status 3"):
        install("dame-rs", tmp_path / "engines", python=str(recording_python(tmp_path)), say=said.append)
    arguments = json.loads((tmp_path / "recorded" / "pip.json").read_text())
    assert arguments[:2] == ["-m", "pip"]
    assert "dame-rs==0.2.0" in arguments
    assert arguments[-1].endswith("draughts_conformance-9.9-py3-none-any.whl")
    assert not any(argument.startswith("draughts-conformance") for argument in arguments)
    assert "-e" not in arguments
    assert (tmp_path / "recorded" / "draughts_conformance-9.9-py3-none-any.whl").is_file()
    assert not Path(arguments[-1]).exists()  # built in a temporary folder, gone after the install
    assert any("draughts-conformance 9.9 (a wheel of the installation in" in line for line in said)


def test_install_that_cannot_tell_its_source_fails_before_pip(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def unknown() -> ProjectSource:
        raise SelfInstallError("copied by hand")

    monkeypatch.setattr(thirdparty, "expected_project", unknown)
    monkeypatch.setenv("RECORDED", str(tmp_path / "recorded"))
    with pytest.raises(InstallError, match="dame-rs: copied by hand"):
        install("dame-rs", tmp_path / "engines", python=str(recording_python(tmp_path)), say=lambda _: None)
    assert not (tmp_path / "recorded").exists()


# -- end to end: a wheel, a venv, and the suite it would put into an engine's venv ---------------------


def _venv_with_dependencies(path: Path) -> Path:
    """A fresh venv that sees this interpreter's site-packages after its own (for the suite's
    dependencies, so no index is needed); its own site-packages stay empty."""
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(path)], check=True, timeout=300)
    python = path / "bin" / "python"
    purelib = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    Path(purelib, "dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    return python


def _pip_install(python: Path, wheel: Path) -> None:
    """Install ``wheel`` into ``python``'s venv with this interpreter's pip, never asking an index."""
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "--python",
            str(python),
            "install",
            "--no-index",
            "--no-deps",
            "-q",
            str(wheel),
        ],
        check=True,
        timeout=600,
        env={**os.environ, "PIP_FIND_LINKS": ""},
    )


@pytest.mark.slow
def test_from_a_wheel_install_the_engines_get_the_suite_without_the_index(tmp_path: Path) -> None:
    """Build the wheel, install it in a fresh venv, let `engines install` there run pip (recorded),
    then install the wheel pip was given into another venv, with no index: it is the same suite."""
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(tmp_path / "built"), str(REPO)],
        check=True,
        timeout=600,
    )
    (built,) = (tmp_path / "built").glob("draughts_conformance-*.whl")
    harness = _venv_with_dependencies(tmp_path / "harness")
    _pip_install(harness, built)

    script = f"""
import json, sys, conformance
from pathlib import Path
from conformance.engines import thirdparty
from conformance.engines.selfinstall import project_source
source = project_source()
try:
    thirdparty.install("dame-rs", Path({str(tmp_path / "engines")!r}), python={str(recording_python(tmp_path))!r}, say=print)
except thirdparty.InstallError as error:
    print("install failed as recorded:", error.message)
print(json.dumps({{"file": conformance.__file__, "kind": source.kind.value}}))
"""
    completed = subprocess.run(
        [str(harness), "-I", "-c", script],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=tmp_path,
        env={**os.environ, "RECORDED": str(tmp_path / "recorded")},
        check=False,
    )
    assert completed.returncode == 0, completed.stderr
    report = json.loads(completed.stdout.strip().splitlines()[-1])
    assert report["kind"] == "installed distribution"
    assert str(tmp_path / "harness") in report["file"]
    arguments = json.loads((tmp_path / "recorded" / "pip.json").read_text())
    assert not any(argument.startswith("draughts-conformance") for argument in arguments)
    (rebuilt,) = (tmp_path / "recorded").glob("draughts_conformance-*.whl")

    with zipfile.ZipFile(built) as original, zipfile.ZipFile(rebuilt) as copy:
        shipped = {n for n in original.namelist() if not n.endswith("/RECORD")}
        assert "conformance/servers/draughts_js.js" in shipped  # package data: draughts.js's server
        assert {n for n in copy.namelist() if not n.endswith("/RECORD")} == shipped
        for name in shipped:
            assert copy.read(name) == original.read(name), name

    engine = _venv_with_dependencies(tmp_path / "engine")
    _pip_install(engine, rebuilt)
    check = (
        "import conformance, json; from conformance.core import rulebook; from conformance.core.corpus import load_corpus;"
        "print(json.dumps([conformance.__file__, len(load_corpus().cases), rulebook.section('4.13').title]))"
    )
    answer = subprocess.run(
        [str(tmp_path / "engine" / "bin" / "python"), "-I", "-c", check],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
        cwd=tmp_path,
    )
    file, cases, title = json.loads(answer.stdout)
    assert str(tmp_path / "engine") in file
    assert cases == len(__import__("conformance.core.corpus").corpus.load_corpus().cases)
    assert title == "The most pieces"
