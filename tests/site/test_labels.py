"""The site's words per language, and which of Material's translations a page language gets."""

from __future__ import annotations

from pathlib import Path

import material

from site_plugins.chrome import PageLanguage
from site_plugins.labels import FALLBACK, LABELS, labels

MATERIAL = str(Path(material.__file__).parent / "templates")


def test_every_table_translates_english_keys_only() -> None:
    for language, table in LABELS.items():
        assert table.keys() <= LABELS[FALLBACK].keys(), language
    assert LABELS["ru"].keys() == LABELS[FALLBACK].keys()
    assert labels("sw") == LABELS[FALLBACK]


def test_each_language_gets_materials_nearest_translation() -> None:
    chrome = PageLanguage([MATERIAL])
    assert chrome.translation("ru") == "ru"
    assert chrome.translation("pt-br") == "pt-BR"
    assert chrome.translation("de-at") == "de"
    assert chrome.translation("sw") == "en"
    assert [chrome.direction(code) for code in ("ar", "he-il", "ru", "ku-iq")] == [
        "rtl",
        "rtl",
        "ltr",
        "rtl",
    ]
    assert chrome.label("ru", "copy_button") == "Скопировать инструкции"
    assert chrome.label("sw", "copy_button") == "Copy instructions"
