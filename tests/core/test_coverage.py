"""How far each translation kept up (build_tools.history.coverage): current, behind since which
version and from which one, or missing from the role's bundle."""

from __future__ import annotations

from build_tools.check import check_catalog
from build_tools.history.coverage import Row, coverage
from build_tools.history.replay import read_history
from build_tools.history.versions import History, Reach
from tests.support.catalogs import Catalog
from tests.support.history_repo import StoryRepo


def states(rows: list[Row]) -> dict[str, list[tuple[str, str]]]:
    return {row.slug: [(cell.language, cell.state) for cell in row.cells] for row in rows}


def test_a_translation_left_behind_says_since_when_and_from_what(story: StoryRepo) -> None:
    catalog = check_catalog(story[0] / "catalog").catalog
    assert catalog is not None
    rows = list(coverage(catalog, read_history(story[0] / "catalog").including(catalog)))
    assert states(rows) == {
        "reviewer": [("en", "current"), ("ru", "current")],  # caught up at version 4
        "writer": [("en", "current"), ("ru", "behind")],
        "helper": [("en", "current"), ("ru", "behind")],
    }
    writer, helper = rows[1].cells[1].behind, rows[2].cells[1].behind
    assert writer is not None and helper is not None
    # Writer 2 changed English alone: Russian is still the translation of version 1.
    assert (writer.since.number, writer.basis.number, writer.current.number) == (2, 1, 2)
    assert writer.source == "en" and writer.changed == ("en",)
    # Helper came back at version 2 in both languages; version 3 changed English alone.
    assert (helper.since.number, helper.basis.number, helper.source) == (3, 2, "en")
    assert rows[0].cells[1].behind is None


def test_a_language_the_bundle_lacks_is_missing(catalog: Catalog) -> None:
    catalog.index["bundles"][1]["languages"] = ["en"]
    catalog.index["bundles"][1]["name"] = {"en": "Beta"}
    del catalog.files[("beta", "ru")]
    (catalog.root / "bundles/beta/ru.json").unlink()
    catalog.index["bundles"][1]["roles"][0]["version"] = 3
    catalog.write().lock()
    checked = check_catalog(catalog.root).catalog
    assert checked is not None
    rows = list(coverage(checked, History(Reach(unavailable="off")).including(checked)))
    assert [(row.bundle.id, row.slug) for row in rows] == [
        ("alpha", "one"),
        ("alpha", "two"),
        ("beta", "three"),
    ]
    assert states(rows)["three"] == [("en", "current"), ("ru", "missing")]
    assert states(rows)["one"] == [("en", "current"), ("ru", "current")]
