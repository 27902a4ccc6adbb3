"""Publishing is atomic: a build that fails at any point leaves an existing site byte for byte.

Failures are injected after the check has passed, through MkDocs hooks (``hooks:`` in mkdocs.yml)
and a broken page template: the site must then be exactly what it was, and no staging directory may
be left beside it.
"""

from __future__ import annotations

import json
import os
import shutil
import time
from pathlib import Path

import pytest

from build_tools.check import check_catalog
from build_tools.sources.json_reader import MAX_FILE_BYTES
from tests.support.catalog_files import lock_as_is
from tests.support.cli import run
from tests.support.paths import OUR_CATALOG, REPO
from tests.support.site_builds import copy_catalog, mkdocs_build, our_config, site_env

HOOKS = {
    "a page that cannot be written": (
        "import errno\n"
        "def on_post_page(output, page, config):\n"
        "    if page.file.src_uri.endswith('code-reviewer/index.md'):\n"
        "        raise OSError(errno.ENOSPC, 'No space left on device')\n"
        "    return output\n"
    ),
    "a failure after every page is written": (
        "from mkdocs.plugins import event_priority\n"
        "@event_priority(50)\n"
        "def on_post_build(config):\n"
        "    raise RuntimeError('injected after the pages were written')\n"
    ),
    "a warning that fails a strict build after the last plugin": (
        "import logging\n"
        "from mkdocs.plugins import event_priority\n"
        "@event_priority(-100)\n"
        "def on_post_build(config):\n"
        "    logging.getLogger('mkdocs.plugins.late').warning('a late warning')\n"
    ),
}


def configure(tmp_path: Path, *, hook: str | None = None, templates: Path | None = None) -> Path:
    """The repository's mkdocs.yml, its paths made absolute, with a hook or other page templates."""
    config = our_config(tmp_path, templates=templates)
    if hook is not None:
        (tmp_path / "hook.py").write_text(hook, encoding="utf-8")
        with config.open("a", encoding="utf-8") as text:
            text.write(f"\nhooks:\n  - {tmp_path / 'hook.py'}\n")
    return config


build_with = mkdocs_build
"""``mkdocs build`` of ``catalog`` into ``site`` (strict, as mkdocs.yml says)."""


def snapshot(root: Path) -> dict[str, tuple[bytes, int]]:
    return {
        p.relative_to(root).as_posix(): (p.read_bytes(), p.stat().st_mtime_ns)
        for p in root.rglob("*")
        if p.is_file()
    }


def staging_left(site: Path) -> list[str]:
    return [p.name for p in site.parent.iterdir() if p.name.startswith(f".{site.name}.rolecat-")]


@pytest.fixture
def published(tmp_path: Path) -> Path:
    """A site built and published from our catalog: what a failing build must leave alone."""
    site = tmp_path / "www" / "site"
    first = build_with(configure(tmp_path), OUR_CATALOG, site)
    assert first.returncode == 0, first.output
    return site


@pytest.mark.parametrize("failure", list(HOOKS))
def test_a_build_that_fails_late_leaves_the_site_alone(
    published: Path, tmp_path: Path, failure: str
) -> None:
    before = snapshot(published)
    hooked = tmp_path / "hooked"
    hooked.mkdir()
    failed = build_with(configure(hooked, hook=HOOKS[failure]), OUR_CATALOG, published)
    assert failed.returncode != 0, failed.output
    assert "Documentation built" not in failed.output
    assert snapshot(published) == before
    assert staging_left(published) == []


def test_an_exception_in_a_template_is_one_line_and_leaves_the_site_alone(
    published: Path, tmp_path: Path
) -> None:
    templates = Path(shutil.copytree(REPO / "templates/pages", tmp_path / "pages"))
    role = templates / "role.html"
    role.write_text("{{ no_such_value.field }}\n" + role.read_text("utf-8"), encoding="utf-8")
    before = snapshot(published)
    failed = build_with(configure(tmp_path, templates=templates), OUR_CATALOG, published)
    assert failed.returncode == 1
    assert "Traceback" not in failed.output
    assert "cannot render en/engineering/code-reviewer/index.md from" in failed.output
    assert snapshot(published) == before
    assert staging_left(published) == []


def test_a_build_that_succeeds_replaces_the_site_whole(published: Path, tmp_path: Path) -> None:
    (published / "stale.html").write_text("from an older build", encoding="utf-8")
    published.chmod(0o755)
    again = build_with(configure(tmp_path), OUR_CATALOG, published)
    assert again.returncode == 0, again.output
    assert not (published / "stale.html").exists()
    assert (published / "index.json").read_bytes() == (OUR_CATALOG / "index.json").read_bytes()
    assert published.stat().st_mode & 0o777 == 0o755
    assert staging_left(published) == []


def test_a_symlinked_site_directory_stays_a_symlink(tmp_path: Path) -> None:
    real = tmp_path / "www" / "real-site"
    real.mkdir(parents=True)
    (real / "stale.html").write_text("old", encoding="utf-8")
    link = tmp_path / "site"
    link.symlink_to(real)
    done = build_with(configure(tmp_path), OUR_CATALOG, link)
    assert done.returncode == 0, done.output
    assert link.is_symlink() and link.resolve() == real.resolve()
    assert (real / "index.json").is_file() and not (real / "stale.html").exists()
    assert staging_left(real) == []


def test_a_dirty_build_starts_from_the_published_site(published: Path, tmp_path: Path) -> None:
    kept = published / "kept-by-dirty.txt"
    kept.write_text("a file no build writes", encoding="utf-8")
    config = configure(tmp_path)
    config.write_text(config.read_text("utf-8").replace("strict: true", "strict: false"), "utf-8")
    done = build_with(config, OUR_CATALOG, published, "--dirty")  # not strict: MkDocs warns
    assert done.returncode == 0, done.output
    assert kept.read_text(encoding="utf-8") == "a file no build writes"
    assert staging_left(published) == []


def test_the_build_refuses_what_the_server_would_refuse_with_the_checks_words(
    published: Path, tmp_path: Path
) -> None:
    catalog = copy_catalog(OUR_CATALOG, tmp_path / "catalog")
    path = catalog / "bundles/writing/en.json"
    # Short lines: small as JSON, over the cap as the YAML the site also publishes; spread over
    # new roles, each within the 20,000 characters the server's admin API saves.
    index = json.loads((catalog / "index.json").read_text(encoding="utf-8"))
    writing = next(b for b in index["bundles"] if b["id"] == "writing")
    for language in writing["languages"]:
        source = catalog / f"bundles/writing/{language}.json"
        data = json.loads(source.read_text(encoding="utf-8"))
        for number in range(20):
            data["roles"].append(
                {
                    "slug": f"long-{number}",
                    "name": f"Long {number}",
                    "instructions": "x\n" * 9_990 if language == "en" else "Short.",
                }
            )
        source.write_text(json.dumps(data, ensure_ascii=False, indent=2), encoding="utf-8")
    writing["roles"] += [{"slug": f"long-{number}", "version": 1} for number in range(20)]
    (catalog / "index.json").write_text(json.dumps(index, indent=2), encoding="utf-8")
    lock_as_is(catalog)
    assert path.stat().st_size < MAX_FILE_BYTES
    expected = [str(d) for d in check_catalog(catalog).diagnostics]
    assert len(expected) == 1 and "the published bundles/writing/en.yaml is" in expected[0]
    assert run("check", "--catalog", str(catalog), "--model-tiers").lines == expected
    before = snapshot(published)

    failed = build_with(configure(tmp_path), catalog, published)

    assert failed.returncode == 1
    assert expected[0] in failed.output.splitlines()
    assert snapshot(published) == before
    assert staging_left(published) == []


@pytest.mark.parametrize("hostile", ["fifo", "nesting"])
def test_hostile_input_fails_the_build_in_one_line(
    published: Path, tmp_path: Path, hostile: str
) -> None:
    catalog = copy_catalog(OUR_CATALOG, tmp_path / "catalog")
    path = catalog / "bundles/writing/ru.json"
    path.unlink()
    if hostile == "fifo":
        os.mkfifo(path)  # a build that opened it blocking would wait for ever
    else:
        path.write_text('{"roles": ' + "[" * 100_000 + "]" * 100_000 + "}", encoding="utf-8")
    expected = [str(d) for d in check_catalog(catalog).diagnostics]
    before = snapshot(published)
    failed = build_with(configure(tmp_path), catalog, published)
    assert failed.returncode == 1
    assert "Traceback" not in failed.output
    assert expected and expected[0].startswith("bundles/writing/ru.json")
    assert set(expected) <= set(failed.output.splitlines())
    assert snapshot(published) == before


@pytest.mark.parametrize("aim", ["the catalog", "a symlink to it", "its parent", "inside it"])
def test_a_build_aimed_at_the_catalog_refuses_and_touches_nothing(tmp_path: Path, aim: str) -> None:
    workspace = tmp_path / "repo"
    catalog = copy_catalog(OUR_CATALOG, workspace / "roles" / "catalog")
    config = configure(workspace)
    site = {
        "the catalog": catalog,
        "a symlink to it": workspace / "site",
        "its parent": catalog.parent,
        "inside it": catalog / "bundles",
    }[aim]
    if aim == "a symlink to it":
        site.symlink_to(catalog, target_is_directory=True)
    before = snapshot(workspace)
    refused = build_with(config, catalog, site)
    assert refused.returncode == 1, refused.output
    assert "Traceback" not in refused.output
    line = next(x for x in refused.output.splitlines() if "the site directory" in x)
    assert str(site) in line and str(catalog) in line and "the catalog directory" in line
    assert snapshot(workspace) == before
    assert sorted(p.name for p in workspace.iterdir()) == sorted(
        ["roles", "mkdocs.yml", *(["site"] if aim == "a symlink to it" else [])]
    )


@pytest.mark.parametrize("what", ["the config file", "the page templates"])
def test_a_build_aimed_at_its_config_or_templates_refuses(tmp_path: Path, what: str) -> None:
    templates = Path(shutil.copytree(REPO / "templates/pages", tmp_path / "pages"))
    config = configure(tmp_path, templates=templates)
    site = tmp_path if what == "the config file" else templates
    (tmp_path / "docs-elsewhere").mkdir()  # MkDocs itself refuses a site holding its docs
    before = snapshot(tmp_path)
    refused = build_with(config, OUR_CATALOG, site)
    assert refused.returncode == 1
    assert f"contains {what}" in refused.output or f"is {what}" in refused.output
    assert snapshot(tmp_path) == before


def test_a_staging_directory_a_killed_build_left_is_removed_but_not_a_running_ones(
    published: Path, tmp_path: Path
) -> None:
    import fcntl

    abandoned = published.parent / f".{published.name}.rolecat-killed00"
    abandoned.mkdir()
    (abandoned / "index.html").write_text("half a site", encoding="utf-8")
    running = published.parent / f".{published.name}.rolecat-running0"
    running.mkdir()
    held = os.open(running, os.O_RDONLY | os.O_DIRECTORY)
    fcntl.flock(held, fcntl.LOCK_EX)  # as a build that is still writing it holds it
    try:
        again = build_with(configure(tmp_path), OUR_CATALOG, published)
        assert again.returncode == 0, again.output
        assert staging_left(published) == [running.name]
    finally:
        os.close(held)


@pytest.mark.parametrize(
    "site_url", ["https://roles.example/c/?v=2", "https://roles.example/c/#top"]
)
def test_a_site_url_verify_would_refuse_is_refused(tmp_path: Path, site_url: str) -> None:
    """The overview would advertise it as AI_AGENT_ROLES_CATALOG_URL."""
    from tests.support.site_builds import build

    refused = build(OUR_CATALOG, tmp_path / "site", site_url=site_url)
    assert refused.returncode == 1
    assert "site_url: the base URL must not carry a query or fragment" in refused.output
    assert not (tmp_path / "site").exists()


def test_two_builds_of_one_catalog_outside_git_are_byte_identical(tmp_path: Path) -> None:
    """No SOURCE_DATE_EPOCH and no history: the feeds and the sitemap are dated from the
    catalog's files, never from the clock."""
    catalog = copy_catalog(OUR_CATALOG, tmp_path / "catalog")
    config = configure(tmp_path)
    built = []
    env = {k: v for k, v in site_env(catalog).items() if k != "SOURCE_DATE_EPOCH"}
    for name in ("first", "second"):
        site = tmp_path / name
        done = mkdocs_build(config, catalog, site, env=env)
        assert done.returncode == 0, done.output
        built.append(
            {p.relative_to(site).as_posix(): p.read_bytes() for p in site.rglob("*") if p.is_file()}
        )
        time.sleep(1.1)  # a clock in whole seconds would tell the two apart
    first, second = built
    assert first.keys() == second.keys()
    assert [path for path in first if first[path] != second[path]] == []
    assert b"<updated>" in first["feed.xml"]
