"""A preview's checks reuse what unchanged files gave the last check, and still see every edit.

Each step edits the catalog on disk, then checks it twice: once with the ``Reuse`` a preview
keeps across its rebuilds, once from scratch. Both must report the same, and the step's own
problem must be among them, or gone once it is undone.
"""

from __future__ import annotations

from collections.abc import Callable

from build_tools.check import CheckResult, check_catalog
from build_tools.reuse import Reuse
from build_tools.wire import judged
from tests.support.catalogs import Catalog, use_file


def lines(result: CheckResult) -> list[str]:
    return [str(d) for d in result.diagnostics]


def test_a_reusing_check_sees_each_edit_as_a_fresh_check_does(catalog: Catalog) -> None:
    reuse, memo = Reuse(), judged.Memo()

    def both() -> list[str]:
        again = lines(check_catalog(catalog.root, memo=memo, reuse=reuse))
        assert again == lines(check_catalog(catalog.root))
        return again

    def step(change: Callable[[], None]) -> list[str]:
        change()
        catalog.write()
        return both()

    assert both() == []
    alpha_en, alpha_ru = catalog.files[("alpha", "en")], catalog.files[("alpha", "ru")]
    beta_ru = catalog.files[("beta", "ru")]

    # One file edited: the lock sees the role change, the other files are taken over.
    found = step(lambda: alpha_en["roles"][0].update(instructions="Edited in the preview."))
    assert any('role "one" changed since' in line for line in found)

    # A rule across files, broken by an edit to one of them: the other is the one reused.
    found = step(lambda: beta_ru["roles"][0].update(emoji="🦘"))
    assert any("must be the same in every language" in line for line in found)
    found = step(lambda: beta_ru["roles"][0].update(emoji="🧭"))
    assert not any("must be the same in every language" in line for line in found)

    # A slug taken twice across bundles.
    found = step(lambda: catalog.index["bundles"][1]["roles"].append({"slug": "one", "version": 1}))
    assert any("unique across the whole catalog" in line for line in found)
    found = step(lambda: catalog.index["bundles"][1]["roles"].pop())
    assert not any("unique across the whole catalog" in line for line in found)

    # An instruction file is part of the file that names it: editing it alone is an edit.
    text = use_file(catalog, "alpha", "ru", 1, "prompts/two.md")
    prompts = catalog.path("bundles/alpha/prompts")
    prompts.mkdir()
    (prompts / "two.md").write_text(f"{text}\n", encoding="utf-8")
    catalog.write()
    before = both()
    (prompts / "two.md").write_text(f"{text} More.\n", encoding="utf-8")
    found = both()
    assert any('role "two" changed since' in line for line in found)
    assert found != before

    # A missing instruction file is looked for again, and found once it is back.
    (prompts / "two.md").unlink()
    assert any("does not exist" in line for line in both())
    (prompts / "two.md").write_text(f"{text}\n", encoding="utf-8")
    assert both() == before

    # A file that is not JSON, and then is again.
    path = catalog.path("bundles/alpha/ru.json")
    good = path.read_bytes()
    path.write_text("{ not JSON", encoding="utf-8")
    assert any(line.startswith("bundles/alpha/ru.json:") for line in both())
    path.write_bytes(good)
    assert both() == before
    assert alpha_ru["roles"][1]["instructionsFile"] == "prompts/two.md"
