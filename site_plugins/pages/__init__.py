"""Everything that turns a checked catalog and its history into HTML, feeds and text.

It never imports MkDocs (ruff's banned-api says so), so a page is rendered and tested from a
``Catalog`` alone: ``site.catalog_pages`` makes every page, ``roles`` the bundle and role pages,
``history`` and ``health`` what the history adds, ``history_feeds`` the Atom feeds. The site's
words are data, one file per language in ``words/`` (see ``labels``).
"""
