"""The repository's own pages (``docs/``) in every language of the catalog.

``about.md`` speaks the site's root language and stays at ``/about/``; a translation beside it,
``about.ru.md``, is the same page in Russian, published at ``/about/ru/``. Each language's sidebar
lists the page in that language, or the untranslated one where it has none (the build log says
so), and the header's switcher leads from one translation to another.
"""

from __future__ import annotations

import os
import posixpath
from collections.abc import Iterable
from dataclasses import dataclass, field

from mkdocs.structure.files import File, Files

from build_tools.wire.site_paths import PAGE_INDEXES
from site_plugins.pages.labels import language_name


@dataclass
class Handwritten:
    """Each hand-written page's language, and the translations of each."""

    root: str
    """The language of a page without a language in its name."""
    language: dict[str, str] = field(default_factory=dict)
    """src_uri -> the language the page is written in."""
    groups: dict[str, dict[str, File]] = field(default_factory=dict)
    """The page's name without a language (``about.md``) -> its translations by language."""

    def nav(self, languages: Iterable[str]) -> dict[str, list[str]]:
        """Each language's hand-written pages, in its own language where translated."""
        found: dict[str, list[str]] = {}
        for language in languages:
            found[language] = [
                (group.get(language) or group.get(self.root) or next(iter(group.values()))).src_uri
                for _name, group in sorted(self.groups.items())
            ]
        return found

    def untranslated(self, languages: Iterable[str]) -> list[str]:
        """``docs/about.md has no ru translation (docs/about.ru.md)`` for each one missing."""
        lines = []
        for name, group in sorted(self.groups.items()):
            stem, ext = posixpath.splitext(name)
            for language in languages:
                if language not in group:
                    lines.append(
                        f"{name} has no {language} translation ({stem}.{language}{ext}): the "
                        f"{language} pages show it as it is"
                    )
        return lines

    def alternates(self, src_uri: str) -> list[dict[str, str]]:
        """The same page in each language it is written in, for the switcher."""
        for group in self.groups.values():
            if any(f.src_uri == src_uri for f in group.values()):
                return [
                    {"lang": lang, "link": file.url, "name": language_name(lang)}
                    for lang, file in group.items()
                ]
        return []


def place(files: Files, languages: Iterable[str], root: str, directory_urls: bool) -> Handwritten:
    """Find the translations among the hand-written pages and publish each at
    ``/<name>/<lang>/``."""
    known = set(languages)
    found = Handwritten(root)
    for file in files.documentation_pages():
        if file.generated_by is not None:
            continue
        stem, ext = posixpath.splitext(file.src_uri)
        name, dot, language = stem.rpartition(".")
        if dot and language in known and posixpath.basename(name) not in PAGE_INDEXES:
            if directory_urls:
                file.dest_uri = f"{name}/{language}/index.html"
                file.url = f"{name}/{language}/"
                file.abs_dest_path = os.path.normpath(os.path.join(file.dest_dir, file.dest_uri))
            group_name = name + ext
        else:
            language, group_name = root, file.src_uri
        found.language[file.src_uri] = language
        found.groups.setdefault(group_name, {})[language] = file
    return found
