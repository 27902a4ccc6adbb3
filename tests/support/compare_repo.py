"""A git repository whose roles change in every field the site compares, for the compare page's
site and browser tests (``tests/support/history_repo.py`` changes only texts).

Bundle "desk" (en, ru), one commit each, dates fixed:

1. 2026-01-05 planner 1; keeper 1, whose English instructions hold a credential (committed with
   the lock as it was, as an old commit could be: no check refused it then); injector 1, whose
   every field is markup, Markdown or template syntax;
2. 2026-02-01 planner 2: one line of its instructions, in both languages; keeper 2: the
   credential gone;
3. 2026-03-01 planner 3: starts on its own, a launch message, a model (sonnet), its description
   and the last line of its instructions, in both languages; injector 2: every text changed,
   still markup;
4. 2026-04-01 planner 4: its model becomes a model key with a driver.
"""

# Russian text is meant to be Cyrillic: RUF001 (letters that look Latin) does not apply here.

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

from build_tools.check import update_lock
from tests.support.catalog_files import lock_as_is, write_json
from tests.support.fake_credentials import SECRETS
from tests.support.history_repo import GitRepo
from tests.support.site_builds import PAYLOAD, PAYLOADS, payload_role

LANGUAGES = ("en", "ru")
SECRET = SECRETS["GitHub Token"]
"""In keeper's first English instructions: it must reach no file of the site."""
RULES = 10
"""Unchanged lines between planner's two changes of instructions: they fold away."""

TEXTS = {
    "en": {
        "intro": "You plan the week for a small team.",
        "tasks": ("List the tasks first.", "List the tasks first, by priority."),
        "rule": "Rule %d: keep each task short.",
        "close": ("Close with a summary.", "End with a short summary and one question."),
        "description": ("Plans the week.", "Plans the week and the month."),
        "launch": "Let's plan this week.",
    },
    "ru": {
        "intro": "Вы планируете неделю небольшой команды.",
        "tasks": ("Сначала перечислите задачи.", "Сначала перечислите задачи по приоритету."),
        "rule": "Правило %d: каждая задача коротко.",
        "close": ("Закончите итогом.", "Завершите кратким итогом и одним вопросом."),
        "description": ("Планирует неделю.", "Планирует неделю и месяц."),
        "launch": "Давайте спланируем неделю.",
    },
}


def planner_instructions(language: str, version: int) -> str:
    texts = TEXTS[language]
    lines = [texts["intro"], "", texts["tasks"][version >= 2], ""]
    lines += [texts["rule"] % n for n in range(1, RULES + 1)]
    lines += ["", texts["close"][version >= 3]]
    return "\n".join(lines)


def planner(language: str, version: int) -> dict[str, Any]:
    texts = TEXTS[language]
    role: dict[str, Any] = {
        "slug": "planner",
        "emoji": "📅",
        "name": f"Planner ({language})",
        "description": texts["description"][version >= 3],
        "instructions": planner_instructions(language, version),
        "autoStart": version >= 3,
    }
    if version >= 3:
        role["launchMessage"] = texts["launch"]
        role["modelConfig"] = {"chatModel": "sonnet"}
    if version >= 4:
        role["modelConfig"] = {"driver": "openai", "chatModel": "gpt-4o-mini"}
    return role


def keeper(language: str, version: int) -> dict[str, Any]:
    secret = f"\n\nDeploy with {SECRET}." if language == "en" and version == 1 else ""
    return {
        "slug": "keeper",
        "name": f"Keeper ({language})",
        "instructions": f"You keep the keys ({language}).{secret}",
    }


def injector(language: str, version: int) -> dict[str, Any]:
    role = payload_role("injector", language)
    if version >= 2:
        role["description"] = f"{PAYLOADS[1]} changed {PAYLOAD}"
        role["instructions"] = f"{role['instructions']}\n{PAYLOADS[0]} added"
        role["launchMessage"] = None
        role["modelConfig"] = {"driver": "openai", "chatModel": f"{PAYLOADS[3]} v2"}
    return role


MAKERS = {"planner": planner, "keeper": keeper, "injector": injector}


def write(catalog: Path, versions: dict[str, int], *, check: bool = True) -> None:
    """The catalog with each role at its version, and its lock (as a check records it, or as it
    is where ``check`` is false)."""
    index = {
        "schemaVersion": 1,
        "bundles": [
            {
                "id": "desk",
                "name": {"en": "Desk", "ru": "Стол"},
                "description": {"en": "Our desk.", "ru": "Наш стол."},
                "languages": list(LANGUAGES),
                "roles": [{"slug": slug, "version": v} for slug, v in versions.items()],
            }
        ],
    }
    write_json(catalog / "index.json", index)
    for language in LANGUAGES:
        roles = [copy.deepcopy(MAKERS[s](language, v)) for s, v in versions.items()]
        write_json(
            catalog / "bundles" / "desk" / f"{language}.json",
            {"schemaVersion": 1, "language": language, "roles": roles},
        )
    if check:
        update = update_lock(catalog)
        assert update.diagnostics == [], update.diagnostics
    else:
        lock_as_is(catalog)


def tell(root: Path) -> Path:
    """The repository of the story in ``root``; returns its catalog directory."""
    repo = GitRepo(root)
    catalog = root / "catalog"
    versions = {"planner": 1, "keeper": 1, "injector": 1}
    write(catalog, versions, check=False)
    repo.commit("Planner, keeper and injector", "2026-01-05")
    versions.update(planner=2, keeper=2)
    write(catalog, versions)
    repo.commit("planner: tasks by priority; keeper: no token", "2026-02-01")
    versions.update(planner=3, injector=2)
    write(catalog, versions)
    repo.commit("planner: starts itself, on sonnet", "2026-03-01")
    versions.update(planner=4)
    write(catalog, versions)
    repo.commit("planner: a model of its own", "2026-04-01")
    return catalog
