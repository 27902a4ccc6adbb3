"""The MkDocs plugin ``rolecat-search``: Pagefind indexes the written site, one bundle per language.

Material's own search (lunr) ships every page's text to every visitor: 15 MB for a catalog of
1,000 role pages, seconds before the first result. Pagefind reads the pages once they are written
and a browser fetches only the chunks a query needs. Each page language gets its own Pagefind
bundle, ``/pagefind/<lang>/``, indexed by Pagefind runs of its own (with stemming where Pagefind has
a stemmer, Russian included): a page searches its own language.
Pagefind indexes what templates mark ``data-pagefind-body`` and skips what they mark
``data-pagefind-ignore``; the header's search box (templates/overrides/partials/search.html)
queries it.

Pagefind holds some four times the HTML it indexes until it has written the bundle: 900 MiB for the
5,000 Russian role pages of a large catalog. So a language whose pages add up to more than
``part_mib`` MiB of HTML is indexed in parts of about equal size, one Pagefind run each: the first
part is the bundle at ``/pagefind/<lang>/``, the others go beside its files at
``/pagefind/<lang>/<n>/``, listed in its ``rolecat-parts.json``. The search box merges them into
the one index it queries (Pagefind's ``mergeIndex``: each query searches every part and ranks
their results together), and a build's memory then grows with the part, not with the catalog.

A build cuts each page for Pagefind as it writes it (``Placed``: the part from its
``data-pagefind-body`` on, in whichever process writes the page), then waits for the index and
fails with one line if Pagefind fails, before the site is published. ``mkdocs serve`` indexes in
the background once a rebuild is done, so a preview reloads as soon as its pages are written and
its search follows a moment later.
"""
