"""bench/lighthouse.py's pieces, without Lighthouse itself (a run takes ten seconds or more): the
gzip host it measures through, the pages it finds in a site, the scores it reads from a report
and the medians, table and audits it prints; and, with a stand-in for the Lighthouse command, that
it runs each page as asked and reads what comes back."""

from __future__ import annotations

import gzip
import http.client
import json
import stat
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bench import lighthouse
from bench.lighthouse_report import (
    PageResult,
    error_lines,
    failing_lines,
    summarize,
    table,
    to_json,
)
from bench.static_host import accepts_gzip, hosted
from tests.support.node_tools import PACKAGES
from tests.support.paths import REPO

PAGE = "<!doctype html><html lang=en><title>t</title>" + "<p>a role, a bundle</p>" * 400


def write(path: Path, data: str | bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(data, str):
        path.write_text(data, encoding="utf-8")
    else:
        path.write_bytes(data)


@pytest.fixture
def site(tmp_path: Path) -> Path:
    root = tmp_path / "site"
    write(root / "index.html", PAGE)
    write(root / "404.html", "<p>not here</p>")
    write(root / "assets" / "site.css", "body { color: black }\n" * 200)
    write(root / "assets" / "logo.png", bytes(range(256)) * 20)
    write(root / "en" / "index.html", PAGE)
    return root


@pytest.fixture
def host(site: Path) -> Iterator[str]:
    with hosted(site) as base:
        yield base.removeprefix("http://").rstrip("/")


def fetch(host: str, path: str, method: str = "GET", **headers: str) -> http.client.HTTPResponse:
    connection = http.client.HTTPConnection(host, timeout=10)
    connection.request(method, path, headers=headers)
    return connection.getresponse()


def test_text_is_gzipped_when_the_browser_accepts_it(host: str, site: Path) -> None:
    answer = fetch(host, "/", **{"Accept-Encoding": "gzip, deflate, br"})
    body = answer.read()
    assert answer.status == 200
    assert answer.getheader("Content-Encoding") == "gzip"
    assert answer.getheader("Vary") == "Accept-Encoding"
    assert answer.getheader("Content-Type") == "text/html; charset=utf-8"
    assert answer.getheader("Cache-Control") == "max-age=600"
    assert int(answer.getheader("Content-Length") or 0) == len(body)
    assert gzip.decompress(body) == (site / "index.html").read_bytes()
    assert len(body) < len(PAGE) / 10  # what a host sends, not what is on disk
    css = fetch(host, "/assets/site.css", **{"Accept-Encoding": "gzip"})
    assert css.getheader("Content-Encoding") == "gzip"
    assert gzip.decompress(css.read()) == (site / "assets" / "site.css").read_bytes()


def test_nothing_is_gzipped_unasked_nor_an_image(host: str, site: Path) -> None:
    plain = fetch(host, "/en/")
    assert plain.getheader("Content-Encoding") is None
    assert plain.read() == (site / "en" / "index.html").read_bytes()
    refused = fetch(host, "/en/", **{"Accept-Encoding": "gzip;q=0, identity"})
    assert refused.getheader("Content-Encoding") is None
    image = fetch(host, "/assets/logo.png", **{"Accept-Encoding": "gzip"})
    assert image.getheader("Content-Encoding") is None
    assert image.read() == (site / "assets" / "logo.png").read_bytes()


def test_a_head_a_redirect_and_a_missing_page(host: str) -> None:
    head = fetch(host, "/en/", "HEAD", **{"Accept-Encoding": "gzip"})
    assert head.status == 200 and head.getheader("Content-Encoding") == "gzip"
    assert head.read() == b""
    moved = fetch(host, "/en")
    assert moved.status == 301 and moved.getheader("Location") == "/en/"
    missing = fetch(host, "/en/no-such-role/", **{"Accept-Encoding": "gzip"})
    assert missing.status == 404
    assert gzip.decompress(missing.read()) == b"<p>not here</p>"


@pytest.mark.parametrize(
    ("header", "accepted"),
    [
        ("gzip", True),
        ("deflate, GZIP;q=0.5", True),
        ("*", True),
        ("gzip;q=0", False),
        ("gzip; q=0.0", False),
        ("br, deflate", False),
        ("", False),
        (None, False),
    ],
)
def test_accept_encoding(header: str | None, accepted: bool) -> None:
    assert accepts_gzip(header) is accepted


def built_site(root: Path, *, index: bool, versions: bool = True) -> Path:
    """A site's pages: two bundles, roles in en and ru, one with a v2/."""
    write(root / "index.html", "home")
    for language in ("en", "ru"):
        write(root / language / "index.html", "gallery")
        for bundle, slugs in (("zeta", ["writer", "editor"]), ("alpha", ["coder"])):
            write(root / language / bundle / "index.html", "bundle")
            for slug in slugs:
                write(root / language / bundle / slug / "index.html", "role")
    if versions:
        write(root / "en" / "zeta" / "editor" / "v2" / "index.html", "version")
    if index:
        bundles = [
            {"id": "zeta", "roles": [{"slug": "writer"}, {"slug": "editor"}]},
            {"id": "alpha", "roles": [{"slug": "coder"}]},
        ]
        write(root / "index.json", json.dumps({"bundles": bundles}))
    return root


def test_each_page_type_is_found_in_the_catalogs_order(tmp_path: Path) -> None:
    assert lighthouse.discover(built_site(tmp_path, index=True)) == {
        "home": "/",
        "gallery-en": "/en/",
        "gallery-ru": "/ru/",
        "bundle-en": "/en/zeta/",
        "role-en": "/en/zeta/writer/",
        "role-ru": "/ru/zeta/writer/",
        "version-en": "/en/zeta/editor/v2/",
    }


def test_without_an_index_the_directories_are_read_and_a_missing_type_is_none(
    tmp_path: Path,
) -> None:
    found = lighthouse.discover(built_site(tmp_path, index=False, versions=False))
    # Sorted directories, and v2/ is never a role.
    assert found["bundle-en"] == "/en/alpha/"
    assert found["role-en"] == "/en/alpha/coder/"
    assert found["version-en"] is None


def report(performance: float, lcp: float, lcp_value: str, seo: float) -> dict[str, Any]:
    """A Lighthouse report (LHR) as Lighthouse 12 writes it, cut to what the bench reads."""
    return {
        "environment": {"benchmarkIndex": 2000},
        "categories": {
            "performance": {
                "score": performance,
                "auditRefs": [
                    {"id": "largest-contentful-paint", "weight": 25},
                    {"id": "total-blocking-time", "weight": 75},
                    {"id": "dom-size", "weight": 0},
                ],
            },
            "accessibility": {
                "score": 1,
                "auditRefs": [{"id": "image-alt", "weight": 10}, {"id": "aria-roles", "weight": 0}],
            },
            "best-practices": {"score": None, "auditRefs": []},
            "seo": {
                "score": seo,
                "auditRefs": [
                    {"id": "meta-description", "weight": 1},
                    {"id": "document-title", "weight": 1},
                    {"id": "hreflang", "weight": 1},
                ],
            },
        },
        "audits": {
            "largest-contentful-paint": {"score": lcp, "displayValue": lcp_value},
            "total-blocking-time": {"score": 1, "displayValue": "0 ms"},
            "dom-size": {"score": 0, "displayValue": "3,000 elements"},
            "image-alt": {"score": 1},
            "aria-roles": {"score": None},
            "meta-description": {"score": 0},
            "document-title": {"score": 1},
            "hreflang": {"score": None},
        },
    }


def test_a_report_gives_each_score_and_the_weighted_audits() -> None:
    run = summarize(report(0.88, 0.52, "3.9 s", 0.5))
    assert run.scores == {
        "performance": 88,
        "accessibility": 100,
        "best-practices": None,
        "seo": 50,
    }
    assert [a.id for a in run.audits["performance"]] == [
        "largest-contentful-paint",
        "total-blocking-time",
    ]  # dom-size weighs nothing
    lcp = run.audits["performance"][0]
    assert (lcp.score, lcp.display) == (0.52, "3.9 s")
    assert lcp.points == pytest.approx(25 * 0.48)
    # hreflang was not applicable: the score is made of the other two.
    assert [(a.id, a.points) for a in run.audits["seo"]] == [
        ("meta-description", 50.0),
        ("document-title", 0.0),
    ]
    assert run.benchmark_index == 2000


def page_of(*reports: dict[str, Any]) -> PageResult:
    result = PageResult("role-en", "/en/zeta/writer/")
    result.runs += [summarize(each) for each in reports]
    return result


def test_medians_and_what_cost_the_points() -> None:
    page = page_of(
        report(0.97, 0.95, "2.1 s", 0.5),
        report(0.90, 0.60, "3.5 s", 0.5),
        report(0.96, 0.90, "2.4 s", 0.5),
    )
    assert page.score("performance") == 96
    assert page.score("best-practices") is None
    # The median run's LCP, with its own value.
    [lcp] = page.failing("performance")
    assert (lcp.id, lcp.score, lcp.display) == ("largest-contentful-paint", 0.90, "2.4 s")
    assert [a.id for a in page.failing("seo")] == ["meta-description"]
    assert page.failing("accessibility") == []


def test_audits_lighthouse_could_not_run_are_named_not_taken_for_clean() -> None:
    broken = report(1, 1, "1.0 s", 1)
    message = "Cannot read properties of undefined (reading 'frame_sequence')"
    broken["audits"]["layout-shifts"] = {
        "score": None,
        "scoreDisplayMode": "error",
        "errorMessage": f"Required RootCauses gatherer encountered an error: {message}\nmore",
    }
    page = page_of(broken, report(1, 1, "1.0 s", 1))
    assert page.runs[0].errors == {
        "layout-shifts": broken["audits"]["layout-shifts"]["errorMessage"]
    }
    assert page.runs[1].errors == {}
    lines = error_lines({"rolecat": [page]})
    assert lines[1] == (
        f"  - layout-shifts, in 1 of 2 runs: Required RootCauses gatherer encountered an error: "
        f"{message}"
    )
    assert error_lines({"rolecat": [page_of(report(1, 1, "1.0 s", 1))]}) == []
    errored = to_json({"rolecat": [page]}, [])["errored"]
    assert errored["layout-shifts"]["runs"] == 1 and errored["layout-shifts"]["of"] == 2


def test_the_table_marks_each_score_against_the_bar_and_names_the_audits() -> None:
    ours = page_of(report(0.97, 0.9, "2.4 s", 0.5), report(0.99, 0.95, "2.1 s", 0.5))
    plain = page_of(report(1, 1, "1.0 s", 1), report(1, 1, "1.0 s", 1))
    results = {"rolecat": [ours], "plain Material": [plain]}
    lines = table(results).splitlines()
    assert lines[0] == (
        "| page type | path | site | performance | accessibility | best practices | SEO "
        "| all ≥ 95 |"
    )
    assert lines[2] == ("| role-en | `/en/zeta/writer/` | rolecat | 98 ✔ | 100 ✔ | — | 50 ✘ | no |")
    assert lines[3] == (
        "| role-en | `/en/zeta/writer/` | plain Material | 100 ✔ | 100 ✔ | — | 100 ✔ | no |"
    )
    text = "\n".join(failing_lines(results))
    assert (
        "rolecat, role-en `/en/zeta/writer/`, SEO 50:\n  - meta-description 0.00, 50.0 points"
        in (text)
    )
    assert "performance" not in text and "plain Material" not in text
    document = to_json(results, ["version-en"], runs=2)
    assert document["missing"] == ["version-en"] and document["runs"] == 2
    [page] = document["sites"]["rolecat"]
    assert page["scores"]["seo"] == 50 and page["runs"][1]["performance"] == 99
    # Every score under 100 keeps its audits in the JSON, under the bar or not.
    assert set(page["failing"]) == {"performance", "seo"}


FAKE = """#!{python}
import gzip, json, os, sys, urllib.request
args = sys.argv[1:]
with open({log!r}, "a") as log:
    log.write(json.dumps({{"args": args, "chrome": os.environ.get("CHROME_PATH")}}) + "\\n")
request = urllib.request.Request(args[0], headers={{"Accept-Encoding": "gzip"}})
with urllib.request.urlopen(request) as answer:
    assert answer.headers["Content-Encoding"] == "gzip"
    gzip.decompress(answer.read())
if "fail-once" in args[0] and not os.path.exists({log!r} + ".failed"):
    open({log!r} + ".failed", "w").close()
    sys.exit(1)
out = next(a.split("=", 1)[1] for a in args if a.startswith("--output-path="))
with open(out, "w") as stream:
    stream.write({report!r})
"""


def test_each_page_is_run_as_asked_and_a_failed_run_once_more(
    tmp_path: Path, site: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake, log = tmp_path / "lighthouse", tmp_path / "runs.jsonl"
    text = json.dumps(report(0.91, 0.7, "3.0 s", 1))
    fake.write_text(FAKE.format(python=sys.executable, log=str(log), report=text))
    fake.chmod(fake.stat().st_mode | stat.S_IXUSR)
    write(site / "fail-once" / "index.html", PAGE)
    monkeypatch.setattr(lighthouse, "lighthouse_cli", lambda: fake)
    monkeypatch.setenv("CHROMIUM", sys.executable)  # any file: the stand-in starts no browser
    pages = {"home": "/", "gallery-en": "/fail-once/"}
    reports = tmp_path / "reports"
    results = lighthouse.measure({"rolecat": site}, pages, 2, tmp_path, reports)
    runs = [json.loads(line) for line in log.read_text().splitlines()]
    assert len(runs) == 5  # 2 pages x 2 runs, and the failed one again
    assert {run["chrome"] for run in runs} == {sys.executable}
    flags = runs[0]["args"][1:]
    assert "--only-categories=performance,accessibility,best-practices,seo" in flags
    assert "--output=json" in flags and "--quiet" in flags
    assert (
        "--chrome-flags=--headless=new --no-sandbox --disable-gpu "
        "--disable-background-networking --disable-component-update"
    ) in flags
    assert not any(
        flag.startswith(("--preset", "--form-factor", "--screenEmulation")) for flag in flags
    )
    [home, gallery] = results["rolecat"]
    assert (home.kind, home.path, len(home.runs)) == ("home", "/", 2)
    assert gallery.score("performance") == 91 and len(gallery.runs) == 2
    kept = sorted(path.name for path in reports.iterdir())
    assert kept == [f"rolecat-{kind}-{n}.json" for kind in ("gallery-en", "home") for n in (1, 2)]
    assert json.loads((reports / "rolecat-home-1.json").read_text()) == json.loads(text)
    assert lighthouse.report_name("plain Material", "role-ru", 3) == "plain-material-role-ru-3.json"


def test_the_pins_are_the_ones_the_suite_and_ci_install() -> None:
    assert f"{lighthouse.PACKAGE}@{lighthouse.VERSION}" in PACKAGES
    ci = (REPO / ".ci" / "run").read_text(encoding="utf-8")
    for package in PACKAGES:
        assert package in ci, f".ci/run does not install {package}"


def fake_lighthouse(tmp_path: Path, exit_code: int) -> Path:
    """A stand-in for the Lighthouse command that writes one report, or fails."""
    fake = tmp_path / "lighthouse"
    text = json.dumps(report(0.99, 1, "1.0 s", 0.9))
    body = (
        "import sys\n"
        f"if {exit_code}: sys.exit('Runtime error encountered: CHROME_PATH is no Chrome')\n"
        "out = next(a.split('=', 1)[1] for a in sys.argv if a.startswith('--output-path='))\n"
        f"open(out, 'w').write({text!r})\n"
    )
    fake.write_text(f"#!{sys.executable}\n{body}")
    fake.chmod(fake.stat().st_mode | stat.S_IXUSR)
    return fake


def test_the_command_prints_the_table_the_missing_pages_and_the_json(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    site = built_site(tmp_path / "site", index=True, versions=False)
    monkeypatch.setattr(lighthouse, "lighthouse_cli", lambda: fake_lighthouse(tmp_path, 0))
    monkeypatch.setenv("CHROMIUM", sys.executable)
    written = tmp_path / "scores.json"
    argv = ["--site", str(site), "--no-baseline", "--runs", "1", "--json", str(written)]
    assert lighthouse.main([*argv, "--pages", "home,version-en"]) == 0
    out = capsys.readouterr().out
    assert "| home | `/` | rolecat | 99 ✔ | 100 ✔ | — | 90 ✘ | no |" in out
    assert "missing: no version-en page in the site" in out
    assert "rolecat, home `/`, SEO 90:\n  - meta-description 0.00, 50.0 points" in out
    assert json.loads(written.read_text())["sites"]["rolecat"][0]["scores"]["seo"] == 90


def test_a_lighthouse_that_does_not_run_is_one_line_and_exit_1(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    site = built_site(tmp_path / "site", index=True)
    monkeypatch.setattr(lighthouse, "lighthouse_cli", lambda: fake_lighthouse(tmp_path, 1))
    monkeypatch.setenv("CHROMIUM", sys.executable)
    argv = ["--site", str(site), "--no-baseline", "--runs", "1", "--pages", "role-ru"]
    assert lighthouse.main(argv) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    [line] = [each for each in captured.err.splitlines() if each.startswith("bench.lighthouse:")]
    assert line == (
        f"bench.lighthouse: lighthouse http://{line.split('http://')[1].split('/')[0]}"
        "/ru/zeta/writer/ failed (exit 1): Runtime error encountered: CHROME_PATH is no Chrome"
    )


def test_a_baseline_that_does_not_build_leaves_ours_measured_and_exit_1(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def unbuilt(work: Path) -> Path:
        raise lighthouse.Failure("bench/plain.py: AttributeError: no site_names")

    site = built_site(tmp_path / "site", index=True)
    monkeypatch.setattr(lighthouse, "lighthouse_cli", lambda: fake_lighthouse(tmp_path, 0))
    monkeypatch.setattr(lighthouse, "build_plain", unbuilt)
    monkeypatch.setenv("CHROMIUM", sys.executable)
    assert lighthouse.main(["--site", str(site), "--runs", "1", "--pages", "home"]) == 1
    out = capsys.readouterr().out
    assert "| home | `/` | rolecat | 99 ✔ |" in out and "| plain Material |" not in out
    assert out.endswith(
        "\nplain Material is not measured: bench/plain.py: AttributeError: no site_names\n"
    )
