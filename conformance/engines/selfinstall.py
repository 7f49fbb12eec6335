"""How this suite installs itself into another environment (the real engines' venvs).

An engine's venv needs this project too (its JSON-lines server is ``conformance.servers.<x>``).
It gets the very code that runs the harness, from wherever that is:

- **a source tree** (a checkout, installed editable or put on ``sys.path``): ``pip install -e
  <tree>``, so the venv always runs the checkout's current adapter code;
- **an installed distribution** (``pip install draughts-conformance-*.whl`` or ``pip install
  <tree>``): a wheel is rebuilt from the installed files that the distribution's ``RECORD``
  lists (packages, corpus, rulebook, metadata), and pip installs that file.

Never from the package index: the suite may not be published, and a published release would not
be the code running here (a local fix, a fork, a newer checkout). A ``.pth`` file pointing into the
harness's own site-packages would avoid the copy, but would also put every package of the
harness's environment into the engine's (py-draughts and pydraughts both install a ``draughts``
package: keeping them apart is why each engine has its own venv) and would break silently when
that environment changes. The rebuilt wheel makes the venv self-contained; pip installs its
dependencies from its ``METADATA`` as usual.
"""

from __future__ import annotations

import base64
import dataclasses
import enum
import hashlib
import importlib.metadata
import re
import zipfile
from pathlib import Path
from typing import Final

import conformance
from conformance.core.errors import EngineFailure

PROJECT_DISTRIBUTION: Final = "draughts-conformance"
_NOT_SHIPPED: Final = frozenset({"RECORD", "INSTALLER", "REQUESTED", "direct_url.json"})
"""dist-info files an installer writes about one installation, not part of the distribution."""


class SelfInstallError(EngineFailure):
    """This suite cannot tell how to install itself elsewhere (the message says why)."""


class SourceKind(enum.Enum):
    SOURCE_TREE = "source tree"
    INSTALLED = "installed distribution"


@dataclasses.dataclass(frozen=True)
class ProjectSource:
    """Where this suite comes from, and how pip puts it into another environment."""

    kind: SourceKind
    location: Path
    """The source tree, or the directory holding the installed packages (site-packages)."""
    version: str
    distribution: importlib.metadata.Distribution | None = dataclasses.field(default=None, compare=False)

    @property
    def editable_root(self) -> Path | None:
        return self.location if self.kind is SourceKind.SOURCE_TREE else None

    @property
    def description(self) -> str:
        if self.kind is SourceKind.SOURCE_TREE:
            return f"{PROJECT_DISTRIBUTION} (editable, from {self.location})"
        return f"{PROJECT_DISTRIBUTION} {self.version} (a wheel of the installation in {self.location})"

    def pip_arguments(self, workdir: Path) -> list[str]:
        """What to give ``pip install`` for this project; an installed distribution is first
        rebuilt as a wheel in ``workdir`` (which must outlive the pip run)."""
        if self.kind is SourceKind.SOURCE_TREE:
            return ["-e", str(self.location)]
        assert self.distribution is not None
        return [str(wheel_of(self.distribution, workdir))]


def project_root(package_file: str | Path | None = None) -> Path | None:
    """The source tree this harness runs from (``pyproject.toml`` naming this project, next to
    ``oracle/`` and ``conformance/``), or None when it runs from an installed distribution."""
    root = Path(package_file or conformance.__file__).resolve().parent.parent
    pyproject = root / "pyproject.toml"
    if not (pyproject.is_file() and (root / "oracle").is_dir() and (root / "conformance").is_dir()):
        return None
    try:
        text = pyproject.read_text(encoding="utf-8")
    except OSError:
        return None
    return root if f'name = "{PROJECT_DISTRIBUTION}"' in text else None


def project_source(
    package_file: str | Path | None = None, distribution: importlib.metadata.Distribution | None = None
) -> ProjectSource:
    """How this suite goes into another environment: from its source tree if it runs from one,
    else from the installed distribution whose files hold the running ``conformance`` package.

    ``package_file`` (default ``conformance.__file__``) and ``distribution`` (default: the
    installed ``draughts-conformance``) are for tests. :class:`SelfInstallError` when neither
    applies (e.g. the package was copied by hand, or another installation shadows it).
    """
    package = Path(package_file or conformance.__file__).resolve()
    root = project_root(package)
    if root is not None:
        return ProjectSource(SourceKind.SOURCE_TREE, root, conformance.__version__)
    if distribution is None:
        try:
            distribution = importlib.metadata.distribution(PROJECT_DISTRIBUTION)
        except importlib.metadata.PackageNotFoundError:
            raise SelfInstallError(
                f"the suite runs from {package.parent}, which is neither a source tree nor part of an "
                f"installed {PROJECT_DISTRIBUTION}: install it with pip (a wheel, or -e CHECKOUT)"
            ) from None
    files = distribution.files
    if files is None:
        raise SelfInstallError(
            f"the installed {PROJECT_DISTRIBUTION} has no RECORD, so its files are unknown: reinstall it with pip"
        )
    located = {Path(str(distribution.locate_file(file))).resolve() for file in files}
    if package not in located:
        raise SelfInstallError(
            f"the suite runs from {package.parent}, but the installed {PROJECT_DISTRIBUTION} "
            f"{distribution.version} has its files elsewhere: two installations shadow each other"
        )
    return ProjectSource(
        SourceKind.INSTALLED, package.parent.parent, distribution.version, distribution=distribution
    )


# -- a wheel from the installed files -------------------------------------------------------------


def wheel_of(distribution: importlib.metadata.Distribution, directory: Path) -> Path:
    """Rebuild the wheel of an installed distribution in ``directory`` from the files its RECORD
    lists: its packages and ``.dist-info`` metadata, without scripts (pip makes them again from
    ``entry_points.txt``), bytecode or the installer's own records. Returns the wheel's path."""
    name = re.sub(r"[-_.]+", "_", distribution.metadata["Name"]).lower()
    version = distribution.version
    dist_info = f"{name}-{version}.dist-info"
    contents: dict[str, bytes] = {}
    for file in distribution.files or ():
        parts = file.parts
        if not parts or parts[0] == ".." or "__pycache__" in parts or file.suffix == ".pyc":
            continue
        if parts[0].endswith(".dist-info"):
            if file.name in _NOT_SHIPPED:
                continue
            archive_name = f"{dist_info}/{'/'.join(parts[1:])}"
        else:
            archive_name = "/".join(parts)
        path = Path(str(distribution.locate_file(file)))
        try:
            contents[archive_name] = path.read_bytes()
        except OSError as error:
            raise SelfInstallError(
                f"the installed {PROJECT_DISTRIBUTION} is incomplete: cannot read {path} "
                f"({error.strerror or error}); reinstall it"
            ) from None
    wheel_metadata = contents.get(f"{dist_info}/WHEEL", b"").decode("utf-8")
    tags = re.findall(r"^Tag: *(\S+)", wheel_metadata, flags=re.MULTILINE)
    if not tags:
        wheel_metadata = (
            "Wheel-Version: 1.0\nGenerator: draughts-conformance\nRoot-Is-Purelib: true\nTag: py3-none-any\n"
        )
        contents[f"{dist_info}/WHEEL"] = wheel_metadata.encode("utf-8")
        tags = ["py3-none-any"]
    record = f"{dist_info}/RECORD"
    lines = [f"{archive},sha256={_digest(data)},{len(data)}" for archive, data in sorted(contents.items())]
    contents[record] = ("\n".join([*lines, f"{record},,"]) + "\n").encode("utf-8")

    directory.mkdir(parents=True, exist_ok=True)
    target = directory / f"{name}-{version}-{tags[0]}.whl"
    with zipfile.ZipFile(target, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for archive_name, data in contents.items():  # RECORD last, as wheels have it
            archive.writestr(archive_name, data)
    return target


def _digest(data: bytes) -> str:
    return base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode("ascii")


__all__ = [
    "PROJECT_DISTRIBUTION",
    "ProjectSource",
    "SelfInstallError",
    "SourceKind",
    "project_root",
    "project_source",
    "wheel_of",
]
