"""The install commands a role page shows: exact for its bundle and language, copied as written,
and one shell argument per value whatever a folder is named."""

from __future__ import annotations

import shlex
from html.parser import HTMLParser

from site_plugins.pages import install
from site_plugins.pages.install import Places
from tests.support.site_builds import SITE_URL, Build


def test_a_folder_with_shell_syntax_stays_one_argument() -> None:
    hostile = "out; touch /tmp/pwned $(id) `id`"
    places = Places("team-roles", hostile)
    claude = install.claude_commands(places, "writing", "ru").splitlines()
    copilot = install.copilot_commands(places, "writing", "ru").splitlines()
    assert shlex.split(claude[0]) == ["claude", "plugin", "marketplace", "add", f"./{hostile}"]
    assert shlex.split(claude[1]) == ["claude", "plugin", "install", "writing-ru@team-roles"]
    assert shlex.split(copilot[0])[-1] == f"$PWD/{hostile}"  # the shell then expands $PWD alone
    url = "https://example.org/roles?a=1&b=$(id)"
    mcp = shlex.split(install.mcp_command(url, "ru"))
    assert mcp == [
        "claude",
        "mcp",
        "add",
        "rolecat",
        "--",
        "rolecat",
        "mcp",
        "--url",
        url,
        "--language",
        "ru",
    ]
    assert install.mcp_command(None, "ru").split(install.SITE)[1] == " --language ru"
    assert install.export_command("writing", "ru") == (
        "rolecat export --to claude-code --language ru --bundle writing ."
    )


class Commands(HTMLParser):
    """The text of each command's <code>, which its copy button copies, by its id."""

    def __init__(self) -> None:
        super().__init__()
        self.found: dict[str, str] = {}
        self._id: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        named = dict(attrs).get("id") or ""
        if tag == "code" and named.startswith("rolecat-command-"):
            self._id = named
            self.found[named] = ""

    def handle_endtag(self, tag: str) -> None:
        if tag == "code":
            self._id = None

    def handle_data(self, data: str) -> None:
        if self._id is not None:
            self.found[self._id] += data


def test_a_role_page_shows_its_bundles_install_commands(our_site: Build) -> None:
    for language in ("en", "ru"):
        page = (our_site.site / language / "writing" / "translator" / "index.html").read_text()
        commands = Commands()
        commands.feed(page)
        assert commands.found == {
            "rolecat-command-claude-0": "claude plugin marketplace add ./site\n"
            f"claude plugin install writing-{language}@agent-roles-catalog",
            "rolecat-command-copilot-0": 'copilot plugin marketplace add "$PWD"/site\n'
            f"copilot plugin install writing-{language}@agent-roles-catalog",
            "rolecat-command-mcp-0": "claude mcp add rolecat -- rolecat mcp "
            f"--url {SITE_URL.rstrip('/')} --language {language}",
        }
        for key in commands.found:
            assert f'data-rolecat-copy="{key}"' in page
