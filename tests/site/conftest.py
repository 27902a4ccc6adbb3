"""Sites built once per session from our catalog, the upstream fixture and a payload catalog."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.paths import OUR_CATALOG
from tests.support.site_builds import SITE_URL, Build, build, write_payload_catalog
from tests.support.upstream_fixtures import upstream


@pytest.fixture(scope="session")
def our_site(tmp_path_factory: pytest.TempPathFactory) -> Build:
    result = build(OUR_CATALOG, tmp_path_factory.mktemp("ours") / "site", site_url=SITE_URL)
    assert result.returncode == 0, result.output
    return result


@pytest.fixture(scope="session")
def upstream_site(tmp_path_factory: pytest.TempPathFactory) -> Build:
    result = build(upstream(), tmp_path_factory.mktemp("upstream") / "site")
    assert result.returncode == 0, result.output
    return result


@pytest.fixture(scope="session")
def payload_catalog(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_payload_catalog(tmp_path_factory.mktemp("payload") / "catalog")


@pytest.fixture(scope="session")
def payload_site(tmp_path_factory: pytest.TempPathFactory, payload_catalog: Path) -> Build:
    result = build(payload_catalog, tmp_path_factory.mktemp("payload-site") / "site")
    assert result.returncode == 0, result.output
    return result
