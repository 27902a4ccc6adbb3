"""A git repository whose catalog went through the changes a real one goes through.

Shared by the history tests of the core, the site and the browser. The story, one commit each
(dates fixed, so pages and feeds can be compared):

1. 2026-01-05 the catalog: bundle "team" (en, ru) with reviewer, writer and helper at version 1;
2. 2026-02-01 reviewer 2: both languages changed;
3. 2026-03-01 reviewer 3: English changed, Russian left behind;
4. 2026-03-15 bundles/team/en.json renamed to en.yaml, nothing else changed;
5. 2026-04-01 a broken commit (ru.json is not JSON): never published, skipped;
6. 2026-04-02 helper removed (and the file fixed);
7. 2026-05-01 helper back at version 2, its English instructions in prompts/helper.md;
8. 2026-06-01 reviewer 4: Russian catches up;
9. 2026-07-01 writer 2: English description and instructions changed, Russian left behind;
10. 2026-08-01 helper 3: only prompts/helper.md changed, Russian left behind (markup in its
    commit subject).
"""

# Russian text is meant to be Cyrillic: RUF001 (letters that look Latin) does not apply here.
# ruff: noqa: RUF001

from __future__ import annotations

import copy
import os
import subprocess
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from build_tools.check import update_lock
from build_tools.sources.formats import dump_yaml
from tests.support.catalog_files import write_json

AUTHOR = "Ada Lovelace"

StoryRepo = tuple[Path, dict[str, str]]
"""The story's repository root, and the commit id of each step by name."""
LONG_LINK = "\n\nSee https://docs.example.test/" + "a1b2c3d4e5" * 30
"""One unbroken word as wide as three phones: the diff must wrap it."""
SUBJECT = "helper: prompt file only </span><script>window.__pwned = 7</script>"
"""The last commit's subject: markup in a commit message shows as text."""


@dataclass
class GitRepo:
    root: Path

    def __post_init__(self) -> None:
        self.root.mkdir(parents=True, exist_ok=True)
        self.git("init", "-q", "-b", "main")

    def env(self, date: str | None = None) -> dict[str, str]:
        env = {
            **os.environ,
            "GIT_CONFIG_GLOBAL": os.devnull,
            "GIT_CONFIG_NOSYSTEM": "1",
            "GIT_AUTHOR_NAME": AUTHOR,
            "GIT_AUTHOR_EMAIL": "ada@example.test",
            "GIT_COMMITTER_NAME": AUTHOR,
            "GIT_COMMITTER_EMAIL": "ada@example.test",
        }
        if date is not None:
            env["GIT_AUTHOR_DATE"] = env["GIT_COMMITTER_DATE"] = f"{date}T12:00:00+00:00"
        return env

    def git(self, *args: str, date: str | None = None) -> str:
        done = subprocess.run(
            ["git", *args],
            cwd=self.root,
            env=self.env(date),
            capture_output=True,
            text=True,
            check=True,
        )
        return done.stdout.strip()

    def commit(self, message: str, date: str) -> str:
        self.git("add", "-A")
        self.git("commit", "-q", "--no-gpg-sign", "-m", message, date=date)
        return self.git("rev-parse", "HEAD")


def instructions(slug: str, language: str, edit: int = 0) -> str:
    words = {
        "en": f"You are the {slug}. Read the request carefully.\n\nAnswer in plain words.",
        "ru": f"Вы — {slug}. Внимательно прочитайте запрос.\n\nОтвечайте простыми словами.",
    }[language]
    return words + "".join(f"\n\nEdit {n}: be brief." for n in range(1, edit + 1))


def role(slug: str, language: str, edit: int = 0) -> dict[str, Any]:
    return {
        "slug": slug,
        "emoji": "🧭",
        "name": f"{slug.title()} ({language})",
        "description": f"What the {slug} does ({language}).",
        "instructions": instructions(slug, language, edit),
        "autoStart": False,
    }


@dataclass
class Story:
    """The catalog's values; ``write`` puts them on disk with a fresh lock."""

    catalog: Path
    versions: dict[str, int] = field(
        default_factory=lambda: {"reviewer": 1, "writer": 1, "helper": 1}
    )
    roles: dict[str, dict[str, dict[str, Any]]] = field(default_factory=dict)
    en_format: str = "json"

    def __post_init__(self) -> None:
        for slug in self.versions:
            self.roles[slug] = {lang: role(slug, lang) for lang in ("en", "ru")}

    def write(self, *, lock: bool = True) -> None:
        index = {
            "schemaVersion": 1,
            "bundles": [
                {
                    "id": "team",
                    "name": {"en": "Team", "ru": "Команда"},
                    "description": {"en": "Our team.", "ru": "Наша команда."},
                    "languages": ["en", "ru"],
                    "roles": [{"slug": s, "version": v} for s, v in self.versions.items()],
                }
            ],
        }
        write_json(self.catalog / "index.json", index)
        for lang in ("en", "ru"):
            value = {
                "schemaVersion": 1,
                "language": lang,
                "roles": [copy.deepcopy(self.roles[slug][lang]) for slug in self.versions],
            }
            target = self.catalog / "bundles" / "team" / lang
            for old in target.parent.glob(f"{lang}.*"):
                old.unlink()
            if lang == "en" and self.en_format == "yaml":
                target.with_suffix(".yaml").write_bytes(dump_yaml(value))
            else:
                write_json(target.with_suffix(".json"), value)
        if lock:
            update = update_lock(self.catalog)
            assert update.diagnostics == [], update.diagnostics


def tell(root: Path) -> tuple[GitRepo, dict[str, str]]:
    """The repository of the story in ``root`` (catalog in ``root/catalog``); commit ids by step."""
    repo = GitRepo(root)
    (root / "README.md").write_text("A team's roles.\n", encoding="utf-8")
    story = Story(root / "catalog")
    ids: dict[str, str] = {}

    story.write()
    ids["start"] = repo.commit("Our first roles", "2026-01-05")

    story.versions["reviewer"] = 2
    story.roles["reviewer"]["en"]["instructions"] = instructions("reviewer", "en", 1)
    story.roles["reviewer"]["ru"]["instructions"] = instructions("reviewer", "ru", 1)
    story.write()
    ids["both"] = repo.commit("reviewer: be brief, in both languages", "2026-02-01")

    story.versions["reviewer"] = 3
    story.roles["reviewer"]["en"]["instructions"] = instructions("reviewer", "en", 2)
    story.write()
    ids["behind"] = repo.commit("reviewer: English only", "2026-03-01")

    story.en_format = "yaml"
    story.write()
    ids["rename"] = repo.commit("English in YAML", "2026-03-15")

    ru = root / "catalog/bundles/team/ru.json"
    ru.write_text(ru.read_text(encoding="utf-8") + "}", encoding="utf-8")
    ids["broken"] = repo.commit("Oops <b>broken</b>", "2026-04-01")

    del story.versions["helper"]
    story.write()
    ids["removed"] = repo.commit("helper: retired", "2026-04-02")

    story.versions["helper"] = 2
    helper = {lang: role("helper", lang, 1) for lang in ("en", "ru")}
    prompt = root / "catalog/prompts/helper.md"
    prompt.parent.mkdir(parents=True, exist_ok=True)
    prompt.write_text(helper["en"].pop("instructions") + "\n", encoding="utf-8")
    helper["en"]["instructionsFile"] = "../../prompts/helper.md"
    story.roles["helper"] = helper
    story.write()
    ids["back"] = repo.commit("helper: back, from a prompt file", "2026-05-01")

    story.versions["reviewer"] = 4
    story.roles["reviewer"]["ru"]["instructions"] = instructions("reviewer", "ru", 2)
    story.write()
    ids["caught-up"] = repo.commit("reviewer: Russian catches up", "2026-06-01")

    story.versions["writer"] = 2
    story.roles["writer"]["en"]["description"] = "Writes <b>release notes</b> & guides (en)."
    story.roles["writer"]["en"]["instructions"] = instructions("writer", "en", 1) + LONG_LINK
    story.write()
    ids["writer"] = repo.commit("writer: release notes", "2026-07-01")

    story.versions["helper"] = 3
    prompt.write_text(instructions("helper", "en", 2) + "\n", encoding="utf-8")
    story.write()
    ids["prompt"] = repo.commit(SUBJECT, "2026-08-01")
    return repo, ids


# A repository committed by hand, under whatever git configuration a user may have.

CYRILLIC_AUTHOR = "Ада Лавлейс"


def git(root: Path, *args: str, env: dict[str, str] | None = None, stdin: str = "") -> str:
    done = subprocess.run(
        ["git", *args],
        cwd=root,
        env={**GitRepo(root).env(), **(env or {})} if (root / ".git").exists() else None,
        input=stdin,
        capture_output=True,
        text=True,
        check=True,
    )
    return done.stdout.strip()


def commit(root: Path, message: str, *, author: str = "Ada", when: str = "1767614400 +0000") -> str:
    git(root, "add", "-A")
    env = {
        "GIT_AUTHOR_NAME": author,
        "GIT_COMMITTER_NAME": author,
        "GIT_AUTHOR_DATE": f"@{when}",
        "GIT_COMMITTER_DATE": f"@{when}",
    }
    git(root, "commit", "-q", "--no-gpg-sign", "-m", message, env=env)
    return git(root, "rev-parse", "HEAD")


SETTINGS = {
    "log output in cp1251": {"i18n.logOutputEncoding": "cp1251"},
    "log output in UTF-16": {"i18n.logOutputEncoding": "UTF-16"},
    "no diff for the root commit": {"log.showRoot": "false"},
    "everything a log can be told": {
        "log.showSignature": "true",
        "log.decorate": "full",
        "log.abbrevCommit": "true",
        "diff.relative": "true",
        "diff.noprefix": "true",
        "color.ui": "always",
        "core.quotePath": "false",
    },
}
