"""The per-module table of a mutmut run: ``mutmut results --all true | python <this file>``.

mutmut prints one ``name: status`` line per mutant; its own summary adds the modules up, and
bench/README.md wants them apart. A timed-out mutant counts as caught (the tests did not pass), as
in mutmut's own badge; one never run ("not checked") is left out of the score.
"""

from __future__ import annotations

import re
import sys
from collections import Counter, defaultdict
from collections.abc import Iterable

# ``build_tools.lock.x_changes__mutmut_3`` and ``build_tools.remote.xǁRemoteSourceǁread__mutmut_1``.
LINE = re.compile(r"^\s*(?P<module>[\w.]+?)\.x[_ǁ]\S*__mutmut_\d+: (?P<status>.+?)\s*$")
COLUMNS = ("not checked", "killed", "timeout", "survived", "no tests")


def tally(lines: Iterable[str]) -> dict[str, Counter[str]]:
    """Statuses counted per module, in the order the modules first appear."""
    counts: dict[str, Counter[str]] = defaultdict(Counter)
    for line in lines:
        found = LINE.match(line)
        if found:
            counts[found["module"]][found["status"]] += 1
    return counts


def score(counts: Counter[str]) -> float | None:
    """Caught over checked, in percent; ``None`` before any mutant ran."""
    checked = counts.total() - counts["not checked"] - counts["skipped"]
    caught = counts["killed"] + counts["timeout"] + counts["caught by type check"]
    return None if checked == 0 else 100 * caught / checked


def table(counts: dict[str, Counter[str]]) -> str:
    """A Markdown table, one row per module and one for them all."""
    heads = ("not run" if column == "not checked" else column for column in COLUMNS)
    rows = ["| module | mutants | " + " | ".join(heads) + " | other | score |"]
    rows.append("| --- | ---: | " + " | ".join("---:" for _ in COLUMNS) + " | ---: | ---: |")
    everything: Counter[str] = Counter()
    for module in sorted(counts):
        everything.update(counts[module])
    for name, found in [*sorted(counts.items()), ("all", everything)]:
        other = found.total() - sum(found[column] for column in COLUMNS)
        value = score(found)
        shown = "not run" if value is None else f"{value:.1f} %"
        cells = [name, str(found.total()), *(str(found[c]) for c in COLUMNS), str(other), shown]
        rows.append("| " + " | ".join(cells) + " |")
    return "\n".join(rows)


def main() -> int:
    counts = tally(sys.stdin)
    if not counts:
        print("no mutants found: run `make mutate` (or `mutmut run`) first", file=sys.stderr)
        return 1
    print(table(counts))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
