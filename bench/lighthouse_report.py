"""What ``bench/lighthouse.py`` keeps of each Lighthouse report, the medians over runs, and the
report it prints: one table, then what cost the points of each score under :data:`BAR`."""

from __future__ import annotations

import statistics
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

CATEGORIES = {
    "performance": "performance",
    "accessibility": "accessibility",
    "best-practices": "best practices",
    "seo": "SEO",
}
"""Lighthouse's category ids, and the names the table gives them."""
BAR = 95
"""The issue's bar for each score, out of 100."""


@dataclass(frozen=True)
class Audit:
    """One weighted audit of a category, as one run (or the median of runs) scored it."""

    id: str
    score: float
    """0 to 1, as Lighthouse scores it."""
    points: float
    """What it cost the category's score, out of 100: its weight's share times ``1 - score``."""
    display: str = ""
    """Lighthouse's value for it (``2.6 s``, ``0.126``), or nothing."""


@dataclass(frozen=True)
class Run:
    """One Lighthouse run of one page: its four scores out of 100 (``None``: not scored), and per
    category the weighted audits it scored."""

    scores: dict[str, float | None]
    audits: dict[str, list[Audit]]
    benchmark_index: float | None = None
    """Lighthouse's measure of the machine's speed in this run."""
    errors: dict[str, str] = field(default_factory=dict)
    """The audits Lighthouse could not run (``scoreDisplayMode`` ``error``), with its message:
    a diagnostic such as ``layout-shifts`` or ``render-blocking-resources`` costs no points, so
    only this says that its details (the elements, the resources) are missing."""

    def brief(self) -> str:
        return ", ".join(f"{name} {_score(self.scores.get(c))}" for c, name in CATEGORIES.items())


def summarize(report: Mapping[str, Any]) -> Run:
    """What a Lighthouse report (its JSON, the LHR) says of each category of :data:`CATEGORIES`:
    the score, and every audit with a weight and a score. A not-applicable or manual audit has
    weight 0 in the report (Lighthouse's scoring leaves it out), so the weights here are the ones
    the score was made of."""
    categories: Mapping[str, Any] = report.get("categories") or {}
    results: Mapping[str, Any] = report.get("audits") or {}
    scores: dict[str, float | None] = {}
    audits: dict[str, list[Audit]] = {}
    for category in CATEGORIES:
        found: Mapping[str, Any] = categories.get(category) or {}
        score = found.get("score")
        scores[category] = None if score is None else round(float(score) * 100)
        weighted = [
            (ref["id"], float(ref["weight"]), results.get(ref["id"]) or {})
            for ref in found.get("auditRefs") or []
            if float(ref.get("weight") or 0) > 0
        ]
        total = sum(weight for _id, weight, result in weighted if result.get("score") is not None)
        audits[category] = [
            Audit(
                name,
                float(result["score"]),
                100 * weight * (1 - float(result["score"])) / total,
                str(result.get("displayValue") or ""),
            )
            for name, weight, result in weighted
            if result.get("score") is not None
        ]
    index = (report.get("environment") or {}).get("benchmarkIndex")
    errors = {
        name: str(result.get("errorMessage") or "").strip()
        for name, result in results.items()
        if result.get("scoreDisplayMode") == "error"
    }
    return Run(scores, audits, None if index is None else float(index), errors)


@dataclass
class PageResult:
    """Every run of one page of one site."""

    kind: str
    path: str
    runs: list[Run] = field(default_factory=list)

    def score(self, category: str) -> float | None:
        """The median of the runs' scores (``None`` if no run scored it)."""
        values = [s for run in self.runs if (s := run.scores.get(category)) is not None]
        return statistics.median(values) if values else None

    def failing(self, category: str) -> list[Audit]:
        """The category's weighted audits whose median score over the runs is under 1, the most
        points lost first; each as the run at its median (the lower one of an even count)
        scored it, so its score, points and value belong together."""
        seen: dict[str, list[Audit]] = {}
        for run in self.runs:
            for audit in run.audits.get(category, []):
                seen.setdefault(audit.id, []).append(audit)
        found = []
        for scored in seen.values():
            middle = statistics.median_low([audit.score for audit in scored])
            if middle < 1:
                found.append(next(audit for audit in scored if audit.score == middle))
        return sorted(found, key=lambda audit: (-audit.points, audit.id))


def _score(value: float | None) -> str:
    if value is None:
        return "—"
    return f"{value:.0f}" if value == int(value) else f"{value:.1f}"


def _cell(value: float | None) -> str:
    return "—" if value is None else f"{_score(value)} {'✔' if value >= BAR else '✘'}"


def table(results: Mapping[str, Sequence[PageResult]]) -> str:
    """One row per page and site (the sites of one page together): the median of each score,
    ✔ where it reaches :data:`BAR`, ✘ where it does not."""
    lines = [
        "| page type | path | site | " + " | ".join(CATEGORIES.values()) + f" | all ≥ {BAR} |",
        "|---|---|---|" + "---|" * (len(CATEGORIES) + 1),
    ]
    kinds = list(dict.fromkeys(page.kind for pages in results.values() for page in pages))
    for kind in kinds:
        for site, pages in results.items():
            page = next((p for p in pages if p.kind == kind and p.runs), None)
            if page is None:
                continue
            scores = [page.score(category) for category in CATEGORIES]
            met = all(score is not None and score >= BAR for score in scores)
            cells = " | ".join(_cell(score) for score in scores)
            lines.append(
                f"| {kind} | `{page.path}` | {site} | {cells} | {'yes' if met else 'no'} |"
            )
    return "\n".join(lines)


def failing_lines(results: Mapping[str, Sequence[PageResult]]) -> list[str]:
    """For each score under :data:`BAR`, a line naming it, then one line per audit that cost it
    points: its id, its median score, its value and the points it cost."""
    lines: list[str] = []
    for site, pages in results.items():
        for page in pages:
            for category, name in CATEGORIES.items():
                score = page.score(category)
                if score is None or score >= BAR:
                    continue
                if not lines:
                    lines.append(
                        f"\nUnder {BAR}: the audits that cost each score its points (an audit's "
                        "median score over the runs, 0 to 1; its value; the points it cost)."
                    )
                lines.append(f"\n{site}, {page.kind} `{page.path}`, {name} {_score(score)}:")
                lines += [
                    f"  - {audit.id} {audit.score:.2f}"
                    + (f" ({audit.display})" if audit.display else "")
                    + f", {audit.points:.1f} points"
                    for audit in page.failing(category)
                ]
    return lines


def errored(results: Mapping[str, Sequence[PageResult]]) -> dict[str, tuple[int, int, str]]:
    """Each audit Lighthouse could not run in some run: in how many runs, of how many, and the
    first message it gave."""
    runs = [run for pages in results.values() for page in pages for run in page.runs]
    found: dict[str, tuple[int, int, str]] = {}
    for run in runs:
        for name, message in run.errors.items():
            count, _total, first = found.get(name, (0, len(runs), message))
            found[name] = (count + 1, len(runs), first)
    return dict(sorted(found.items()))


def error_lines(results: Mapping[str, Sequence[PageResult]]) -> list[str]:
    """A line per audit Lighthouse could not run, so a missing diagnostic is not taken for a
    clean one."""
    found = errored(results)
    if not found:
        return []
    lines = [
        "\nAudits Lighthouse could not run (no score counts them, but their details, the "
        "elements and resources behind a metric, are missing):"
    ]
    for name, (count, total, message) in found.items():
        first = message.splitlines()[0] if message else "no message"
        lines.append(f"  - {name}, in {count} of {total} runs: {first}")
    return lines


def benchmark_index(results: Mapping[str, Sequence[PageResult]]) -> float | None:
    """The median of Lighthouse's measure of the machine's speed over every run."""
    values = [
        index
        for pages in results.values()
        for page in pages
        for run in page.runs
        if (index := run.benchmark_index) is not None
    ]
    return statistics.median(values) if values else None


def to_json(
    results: Mapping[str, Sequence[PageResult]],
    missing: Sequence[str],
    **about: Any,
) -> dict[str, Any]:
    """Everything measured, for ``--json``: per site and page, the median scores, each run's
    scores and the audits that cost points, for every score under 100 (the report prints those
    of the scores under the bar)."""
    return {
        **about,
        "bar": BAR,
        "benchmark_index": benchmark_index(results),
        "missing": list(missing),
        "errored": {
            name: {"runs": count, "of": total, "message": message}
            for name, (count, total, message) in errored(results).items()
        },
        "sites": {
            site: [
                {
                    "kind": page.kind,
                    "path": page.path,
                    "scores": {c: page.score(c) for c in CATEGORIES},
                    "runs": [run.scores for run in page.runs],
                    "failing": {
                        c: [asdict(audit) for audit in page.failing(c)]
                        for c in CATEGORIES
                        if (score := page.score(c)) is not None and score < 100
                    },
                }
                for page in pages
                if page.runs
            ]
            for site, pages in results.items()
        },
    }
