"""The package as a user gets it: the sdist and the wheel built from this tree, the wheel
installed (not editable) into a fresh environment, and that environment alone used to check the
upstream layout, build it from five lines of mkdocs.yml and set up a bare repository.

The fresh environment takes rolecat from the wheel and nothing from this tree; the libraries
rolecat depends on come from the test environment's site-packages, appended to its path, since
tests reach no package index.
"""

from __future__ import annotations

import os
import subprocess
import sys
import sysconfig
import tarfile
import zipfile
from pathlib import Path

import pytest

from build_tools import __version__
from tests.support.paths import REPO
from tests.support.upstream_fixtures import FIVE_LINES, UPSTREAM_DIR, upstream_layout


def tracked(under: str) -> list[str]:
    listed = subprocess.run(
        ["git", "-C", str(REPO), "ls-files", "-z", under],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return sorted(filter(None, listed.split("\0")))


@pytest.fixture(scope="module")
def dist(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``python -m build``: the sdist, then the wheel built from the sdist (so the sdist must
    hold everything the wheel needs)."""
    out = tmp_path_factory.mktemp("dist")
    built = subprocess.run(
        [sys.executable, "-m", "build", "--no-isolation", "--outdir", str(out), str(REPO)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert built.returncode == 0, built.stdout + built.stderr
    return out


@pytest.fixture(scope="module")
def environment(dist: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A new virtual environment with the wheel installed in it; its ``bin``."""
    env = tmp_path_factory.mktemp("env")
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(env)], check=True)
    python = env / "bin" / "python"
    (wheel,) = dist.glob("*.whl")
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "--python",
            str(python),
            "install",
            "-q",
            "--no-deps",
            str(wheel),
        ],
        check=True,
        timeout=300,
    )
    own = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    # The dependencies, after the environment's own site-packages: .pth files in there are not
    # run (so this tree's editable install stays out), only the directory is searched.
    (Path(own) / "zz_dependencies.pth").write_text(
        sysconfig.get_path("purelib") + "\n", encoding="utf-8"
    )
    return env / "bin"


def run_in(bin_dir: Path, cwd: Path, *argv: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    # Material's end-of-life banner is off by upstream's own switch, as the README says.
    env["NO_MKDOCS_2_WARNING"] = "1"
    env["PATH"] = f"{bin_dir}{os.pathsep}{env.get('PATH', '')}"
    return subprocess.run(
        list(argv), cwd=cwd, env=env, capture_output=True, text=True, timeout=300, check=False
    )


def test_the_wheel_holds_the_templates_once_and_every_module(dist: Path) -> None:
    (wheel,) = dist.glob("*.whl")
    assert wheel.name == f"rolecat-{__version__}-py3-none-any.whl"
    names = set(zipfile.ZipFile(wheel).namelist())
    templates = [f"site_plugins/{path}" for path in tracked("templates")]
    code = [
        path
        for path in tracked("build_tools") + tracked("site_plugins")
        if not path.endswith(".gitignore")
    ]
    assert templates and code
    assert set(templates) <= names and set(code) <= names
    # Nothing runs at the start of every Python process of the environment.
    assert not any(name.endswith(".pth") for name in names)
    assert not any(name.startswith(("templates/", "tests/", "catalog/")) for name in names)


def test_the_sdist_holds_the_one_copy_of_the_templates(dist: Path) -> None:
    (sdist,) = dist.glob("*.tar.gz")
    root = f"rolecat-{__version__}"
    with tarfile.open(sdist) as archive:
        names = set(archive.getnames())
    assert {f"{root}/{path}" for path in tracked("templates")} <= names
    assert f"{root}/pyproject.toml" in names
    assert not any(name.startswith(f"{root}/site_plugins/templates") for name in names)


def test_the_installed_package_comes_from_the_wheel(environment: Path, tmp_path: Path) -> None:
    found = run_in(
        environment,
        tmp_path,
        "python",
        "-c",
        "import site_plugins.catalog.theme as t, build_tools; print(build_tools.__file__); "
        "print(t.shipped())",
    )
    assert found.returncode == 0, found.stderr
    module, templates = found.stdout.split()
    site_packages = Path(module).parent.parent
    assert site_packages.is_relative_to(environment.parent)
    assert Path(templates) == site_packages / "site_plugins/templates"
    assert (Path(templates) / "pages/role.html").is_file()
    assert str(REPO) not in found.stdout


def test_version_from_the_wheel(environment: Path, tmp_path: Path) -> None:
    found = run_in(environment, tmp_path, "rolecat", "--version")
    assert (found.returncode, found.stdout) == (0, f"rolecat {__version__}\n")


@pytest.mark.parametrize("generation", ["json", "yaml"])
def test_the_upstream_layout_checks_and_builds_from_five_lines(
    environment: Path, tmp_path: Path, generation: str
) -> None:
    upstream_layout(tmp_path, generation)
    checked = run_in(environment, tmp_path, "rolecat", "check", "--catalog", UPSTREAM_DIR)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert checked.stdout.splitlines() == [
        f"the lock is {UPSTREAM_DIR}/scripts/content-hashes.json, where the upstream checker "
        "keeps it",
        "OK",
    ]
    (tmp_path / "docs").mkdir()
    (tmp_path / "mkdocs.yml").write_text(FIVE_LINES, encoding="utf-8")
    built = run_in(environment, tmp_path, "python", "-m", "mkdocs", "build", "--strict")
    output = built.stdout + built.stderr
    assert built.returncode == 0, output
    assert "Traceback" not in output
    assert (tmp_path / "site/index.json").is_file()
    assert list((tmp_path / "site/en").glob("*/*/index.html"))


def test_init_sets_up_a_bare_repository_that_builds_strict(
    environment: Path, tmp_path: Path
) -> None:
    done = run_in(environment, tmp_path, "rolecat", "init", "--catalog", "catalog")
    assert done.returncode == 0, done.stderr
    built = run_in(environment, tmp_path, "python", "-m", "mkdocs", "build", "--strict")
    assert built.returncode == 0, built.stdout + built.stderr
    assert (tmp_path / "site/bundles/general/en.json").is_file()
    assert (tmp_path / "site/about/index.html").is_file()
