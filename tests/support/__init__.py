"""What the tests share, one module a topic; no test module or conftest is imported by another.

- ``paths``: this repository and its catalog;
- ``cli``: the CLI as users run it; ``reports``: its JSON report read back;
- ``upstream_fixtures``: the upstream catalog's fixtures, and laid out the upstream way;
- ``catalog_files``: JSON, locks and YAML copies as tests write them;
- ``catalogs``: a small valid catalog from Python values; ``diagnostics``: where a message points;
- ``history_repo``: a git repository whose catalog has a story; ``commits``: git for the toolchain;
- ``site_builds``: real sites built and served; ``search_parts``: a site's index in parts;
- ``remote_hosts``: HTTP hosts on loopback; ``export_files``: exports read as each tool reads them;
- ``manual_pages``: the manual and the README; ``fake_credentials``: credential-shaped strings;
- ``contrast``: WCAG's contrast of an element in a Playwright page.

The names most tests use are here too.
"""

from tests.support.cli import Run as Run
from tests.support.cli import run as run
from tests.support.paths import OUR_CATALOG as OUR_CATALOG
from tests.support.paths import REPO as REPO
