"""The install commands a role page shows: exact for its bundle and language, copied as written,
and one shell argument per value whatever a folder is named."""

from __future__ import annotations

import json
import shlex
from html.parser import HTMLParser

from site_plugins.pages.install import Places, install_commands
from site_plugins.pages.labels import labels
from tests.support.site_builds import Build


def test_a_folder_with_shell_syntax_stays_one_argument() -> None:
    hostile = "out; touch /tmp/pwned $(id) `id`"
    commands = install_commands(Places("team-roles", hostile), "writing", "ru", labels("ru"))
    lines = [line for c in commands for line in c["command"].splitlines()]
    assert shlex.split(lines[0]) == ["claude", "plugin", "marketplace", "add", f"./{hostile}"]
    assert shlex.split(lines[1]) == ["claude", "plugin", "install", "writing-ru@team-roles"]
    assert shlex.split(lines[2])[-1] == f"$PWD/{hostile}"  # the shell then expands $PWD alone
    assert lines[-1] == "rolecat export --to claude-code --language ru --bundle writing ."


class Scripts(HTMLParser):
    """The JSON of each install command's copy button, by its id."""

    def __init__(self) -> None:
        super().__init__()
        self.found: dict[str, str] = {}
        self._id: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        named = dict(attrs).get("id") or ""
        self._id = named if tag == "script" and named.startswith("rolecat-install-") else None

    def handle_data(self, data: str) -> None:
        if self._id is not None:
            self.found[self._id] = json.loads(data)
            self._id = None


def test_a_role_page_shows_its_bundles_install_commands(our_site: Build) -> None:
    for language, title in (("en", "Install"), ("ru", "Установка")):
        page = (our_site.site / language / "writing" / "translator" / "index.html").read_text()
        assert f'<h3 id="install">{title}</h3>' in page
        scripts = Scripts()
        scripts.feed(page)
        assert scripts.found == {
            "rolecat-install-claude": "claude plugin marketplace add ./site\n"
            f"claude plugin install writing-{language}@agent-roles-catalog",
            "rolecat-install-copilot": 'copilot plugin marketplace add "$PWD"/site\n'
            f"copilot plugin install writing-{language}@agent-roles-catalog",
            "rolecat-install-export": "rolecat export --to claude-code "
            f"--language {language} --bundle writing .",
        }
        for key in scripts.found:
            assert f'data-rolecat-copy="{key}"' in page
