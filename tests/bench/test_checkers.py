"""The checkers' comparison is honest: one catalog for both, and no number from a peer that did
not say ``OK``.

The stand-in peers here are Python scripts run by this Python, so these tests need neither node
nor the upstream checkers. The tests of the real checkers need both, and the upstream fixtures:
where the peers (``../shared/peers`` or ``ROLECAT_PEERS``) are absent they are skipped, since the
peers are there only to benchmark with and a clone may have none. Where the peers are there but
node is not, they are skipped too, and fail under ``CI=true``: a CI that lays out the peers means
them to be run. The YAML checker also needs the ``yaml`` npm package, which only ``make bench``
installs (into ``.bench/``): without it that test is skipped, as no test reaches the network.
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest

from bench import peers
from bench.catalogs import REPO
from bench.checkers import CheckRow, check_targets, time_checkers
from bench.measure import run
from build_tools.check import default_lock
from tests.support.upstream_fixtures import fixture, in_ci


def _files(root: Path) -> dict[str, bytes]:
    return {
        p.relative_to(root).as_posix(): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file()
    }


def _script(path: Path, body: str) -> Path:
    path.write_text(f"import sys\nfrom pathlib import Path\n{body}\n", encoding="utf-8")
    return path


def test_both_checkers_read_one_catalog_its_bytes_as_they_are(tmp_path: Path) -> None:
    source = REPO / "catalog"
    script = _script(tmp_path / "peer.py", "print('OK')")
    laid = peers.lay_out(source, tmp_path / "laid", script)
    both = peers.commands(laid, sys.executable, "node")

    # check.mjs reads the directory above its own, and the lock beside itself.
    peer_script = Path(both.peer[-1])
    assert peer_script == laid / "scripts" / "check.mjs"
    assert peer_script.parent.parent == laid
    assert both.check[-2:] == ["--catalog", str(laid)]
    # rolecat check reads the lock where check.mjs keeps it: the very same file.
    assert default_lock(laid) == peer_script.parent / "content-hashes.json"

    # Every file of the catalog, byte for byte, and nothing else but the checker itself.
    expected = _files(source)
    expected["scripts/content-hashes.json"] = expected.pop("content-hashes.json")
    expected["scripts/check.mjs"] = script.read_bytes()
    assert _files(laid) == expected


def test_rolecat_checks_the_laid_out_catalog_and_says_OK_alone(tmp_path: Path) -> None:
    laid = peers.lay_out(REPO / "catalog", tmp_path / "laid", None)
    both = peers.commands(laid, sys.executable)
    argv = [*both.check, "--model-tiers"]  # our catalog asks for tier words
    result = run(argv, cwd=REPO)
    assert peers.check_problem(result, laid) is None, result.stdout + result.stderr


def _row(tmp_path: Path, peer_body: str) -> tuple[CheckRow, peers.Commands, Path]:
    """A laid-out catalog, a stand-in peer of ``peer_body`` and a stand-in ``rolecat check`` that
    says OK; each run of either is logged, in order, to the returned file."""
    log = tmp_path / "log"
    peer = _script(
        tmp_path / "peer.py", f"Path({str(log)!r}).open('a').write('peer\\n')\n{peer_body}"
    )
    laid = peers.lay_out(REPO / "catalog", tmp_path / "laid", peer)
    lock_line = f"the lock is {laid / peers.PEER_LOCK}, where the upstream checker keeps it"
    check = _script(
        tmp_path / "check.py",
        f"Path({str(log)!r}).open('a').write('check\\n')\nprint({lock_line!r})\nprint('OK')",
    )
    commands = peers.Commands(
        laid, [sys.executable, str(laid / peers.CHECKER)], [sys.executable, str(check)]
    )
    return CheckRow("L", "json", laid), commands, log


def _logged(log: Path) -> list[str]:
    return log.read_text(encoding="utf-8").split() if log.exists() else []


def test_the_peer_says_OK_before_anything_is_timed(tmp_path: Path) -> None:
    row, commands, log = _row(tmp_path, "print('OK')")
    time_checkers(row, commands, 2, peer=True, floor=False)
    assert _logged(log) == ["peer", "check", "peer", "check", "peer", "check"]
    assert len(row.peer) == len(row.check) == 2 and None not in row.peer + row.check
    assert row.failures == [] and row.ratio() is not None


@pytest.mark.parametrize(
    "body",
    [
        "print('Catalog check FAILED:'); sys.exit(1)",
        "sys.exit(0)",  # silent: no OK
        "print('OK'); sys.exit(1)",
        "print('OK, mostly'); sys.exit(0)",
    ],
    ids=["fails", "silent", "ok-but-exit-1", "not-ok"],
)
def test_a_peer_that_does_not_say_OK_fails_its_row_and_nothing_is_timed(
    tmp_path: Path, body: str
) -> None:
    row, commands, log = _row(tmp_path, body)
    time_checkers(row, commands, 3, peer=True, floor=False)
    assert _logged(log) == ["peer"]  # neither it nor rolecat check was timed
    assert row.peer == [] and row.check == [] and row.ratio() is None
    assert row.failures and "did not print OK and exit 0" in row.failures[0]
    found = {text: holds for text, holds, _numbers in check_targets([row])}
    assert found[next(t for t in found if "check-json.mjs at L" in t)] is False


def test_a_peer_that_fails_a_later_run_leaves_no_ratio(tmp_path: Path) -> None:
    # OK the first two times, then a failure: the third run (the second timed) counts as none.
    counter = tmp_path / "count"
    body = (
        f"c = Path({str(counter)!r}); n = int(c.read_text()) if c.exists() else 0\n"
        "c.write_text(str(n + 1))\n"
        "print('OK') if n < 2 else sys.exit(1)"
    )
    row, commands, _log = _row(tmp_path, body)
    time_checkers(row, commands, 2, peer=True, floor=False)
    assert row.peer[0] is not None and row.peer[1] is None
    assert row.ratio() is None and row.failures


def _real_peer(generation: str) -> Path:
    script = peers.peer_script(generation, peers.peers_dir())
    if script is None:
        pytest.skip(
            f"the upstream checker is not at {peers.peers_dir()}: set {peers.PEERS_VARIABLE} to "
            "compare with it"
        )
    if peers.node_version() is None:
        reason = "the upstream checkers are here but node is not installed"
        if in_ci():
            pytest.fail(reason)
        pytest.skip(reason)
    return script


@pytest.mark.parametrize("generation", ["json", "yaml"])
def test_the_real_checkers_say_OK_on_one_upstream_catalog(tmp_path: Path, generation: str) -> None:
    script = _real_peer(generation)
    if generation == "yaml":
        modules = REPO / ".bench" / "node_modules"
        if peers._version_of(modules / "yaml" / "package.json") != peers.YAML_PACKAGE[1]:
            reason = (
                f"yaml@{peers.YAML_PACKAGE[1]} is not in {modules}: `make bench` installs it "
                "(.ci/run too)"
            )
            if in_ci():
                pytest.fail(reason)
            pytest.skip(reason)
        shutil.copytree(modules, tmp_path / "node_modules")
    source = fixture(peers.FIXTURES[generation])
    laid = peers.lay_out(source, tmp_path / "catalog", script)
    both = peers.commands(laid, sys.executable)
    peer = run(both.peer, cwd=laid)
    assert peers.peer_problem(peer) is None, peer.stdout + peer.stderr
    checked = run(both.check, cwd=REPO)
    assert peers.check_problem(checked, laid) is None, checked.stdout + checked.stderr


def test_the_real_checker_refuses_a_changed_catalog_so_the_row_fails(tmp_path: Path) -> None:
    script = _real_peer("json")
    laid = peers.lay_out(fixture(peers.FIXTURES["json"]), tmp_path / "catalog", script)
    bundle = next((laid / "bundles").glob("*/en.json"))
    bundle.write_text(bundle.read_text(encoding="utf-8").replace('"name": "', '"name": "X', 1))
    row = CheckRow("S", "json", laid)
    time_checkers(row, peers.commands(laid, sys.executable), 1, peer=True, floor=False)
    assert row.peer == [] and row.check == [] and "did not print OK" in row.failures[0]
