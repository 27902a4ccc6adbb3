"""Generated catalogs: valid ones pass, pass the server's guards, and hash stably."""

from __future__ import annotations

import json
import os
import random
import tempfile
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from ruamel.yaml import YAML

from build_tools.check import check_catalog, update_lock
from build_tools.model.tiers import ALIASES, BEST, TIER_ORDER
from build_tools.rules.across_files import PLACEHOLDER
from build_tools.rules.server_contract import AI_DRIVERS
from build_tools.sources.json_reader import MAX_FILE_BYTES
from build_tools.wire import raw_tree

ids = st.from_regex(r"[a-z0-9][a-z0-9-]{0,11}", fullmatch=True)
# Any Unicode text but lone surrogates (no valid file holds one), around a character that shows.
# No U+0000 either: Postgres refuses it, so the server could not import the role.
_any_text = st.text(
    st.characters(exclude_categories=("Cs",), exclude_characters="\x00"), max_size=20
)
# Hypothesis also draws the string constants of the code under test, the scaffold's placeholder
# among them: a valid catalog holds none.
texts = st.builds(
    lambda before, shown, after: before + shown + after,
    _any_text,
    st.sampled_from(["a", "Ж", "🧭", "7", "字", "."]),
    _any_text,
).filter(lambda text: PLACEHOLDER not in text)
optional = st.none() | texts
model_words = st.sampled_from([*TIER_ORDER, *ALIASES, BEST, "Opus"]) | texts
# The same in every language of a role; at least one of its two fields.
# A driver the server knows: it drops any other (integrations/ai/ai.types.ts).
drivers = st.sampled_from(AI_DRIVERS)
model_configs = st.fixed_dictionaries({"chatModel": model_words}, optional={"driver": drivers}) | (
    st.fixed_dictionaries({"driver": drivers}, optional={"chatModel": model_words})
)


@st.composite
def catalogs(draw: st.DrawFn) -> tuple[dict[str, Any], dict[str, dict[str, Any]]]:
    """An index and its bundle files (keyed by ``bundles/<id>/<lang>.json``)."""
    bundle_ids = draw(st.lists(ids, min_size=1, max_size=3, unique=True))
    slugs = iter(draw(st.lists(ids, min_size=len(bundle_ids) * 3, max_size=12, unique=True)))
    index: dict[str, Any] = {"schemaVersion": 1, "bundles": []}
    files: dict[str, dict[str, Any]] = {}
    for bundle_id in bundle_ids:
        languages = draw(st.lists(ids, min_size=1, max_size=3, unique=True))
        bundle_slugs = [next(slugs) for _ in range(draw(st.integers(0, 3)))]
        versions = draw(
            st.lists(
                st.integers(1, 2**53 - 1) | st.floats(0.5, 1e6, allow_nan=False),
                min_size=len(bundle_slugs),
                max_size=len(bundle_slugs),
            )
        )
        entry: dict[str, Any] = {
            "id": bundle_id,
            "name": {lang: draw(texts) for lang in languages},
            "languages": languages,
            "roles": [
                {"slug": s, "version": v} for s, v in zip(bundle_slugs, versions, strict=True)
            ],
        }
        if draw(st.booleans()):
            entry["description"] = {lang: draw(texts) for lang in languages}
        index["bundles"].append(entry)
        shared = {
            slug: {
                k: v
                for k, v in {
                    "emoji": draw(st.none() | st.sampled_from(["🧭", "🔎", "✍️", "🇷🇺"])),
                    "autoStart": draw(st.none() | st.booleans()),
                    "modelConfig": draw(st.none() | model_configs),
                }.items()
                if v is not None
            }
            for slug in bundle_slugs
        }
        for lang in languages:
            roles = []
            for slug in bundle_slugs:
                # Unique in the bundle's language as the server compares names (importFromCatalog).
                name = f"{draw(texts)} {slug}"
                role_value: dict[str, Any] = {"slug": slug, "name": name, **shared[slug]}
                role_value["instructions"] = draw(texts)
                if draw(st.booleans()):
                    role_value["description"] = draw(
                        st.text(
                            st.characters(exclude_categories=("Cs",), exclude_characters="\x00"),
                            max_size=20,
                        ).filter(lambda text: PLACEHOLDER not in text)
                    )
                if draw(st.booleans()):
                    role_value["launchMessage"] = draw(optional)
                roles.append(role_value)
            draw(st.randoms()).shuffle(roles)
            files[f"bundles/{bundle_id}/{lang}.json"] = {
                "schemaVersion": 1,
                "language": lang,
                "roles": roles,
            }
    return index, files


def write(root: Path, index: dict[str, Any], files: dict[str, dict[str, Any]], **dump: Any) -> None:
    for relpath, value in [("index.json", index), *files.items()]:
        path = root / relpath
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(value, **dump), encoding="utf-8")


def server_accepts_index(value: Any) -> bool:
    """The server's type guards for index.json (DESIGN.md, "Wire contract"), independently."""
    if not isinstance(value, dict) or not _number(value.get("schemaVersion")):
        return False
    bundles = value.get("bundles")
    if not isinstance(bundles, list):
        return False
    for bundle in bundles:
        if not isinstance(bundle, dict) or not isinstance(bundle.get("id"), str):
            return False
        if not _string_map(bundle.get("name")):
            return False
        if "description" in bundle and not _string_map(bundle["description"]):
            return False
        languages = bundle.get("languages")
        if not isinstance(languages, list) or not all(isinstance(x, str) for x in languages):
            return False
        roles = bundle.get("roles")
        if not isinstance(roles, list):
            return False
        for role in roles:
            if not isinstance(role, dict) or not isinstance(role.get("slug"), str):
                return False
            if not _number(role.get("version")):
                return False
    return True


def server_accepts_bundle(value: Any) -> bool:
    if not isinstance(value, dict) or not _number(value.get("schemaVersion")):
        return False
    if not isinstance(value.get("language"), str) or not isinstance(value.get("roles"), list):
        return False
    for role in value["roles"]:
        if not isinstance(role, dict):
            return False
        if not all(isinstance(role.get(k), str) for k in ("slug", "name", "instructions")):
            return False
        checks = {
            "emoji": lambda v: isinstance(v, str),
            "description": lambda v: isinstance(v, str),
            "autoStart": lambda v: isinstance(v, bool),
            "launchMessage": lambda v: v is None or isinstance(v, str),
            "modelConfig": lambda v: v is None or isinstance(v, dict),
        }
        if not all(check(role[k]) for k, check in checks.items() if k in role):
            return False
    return True


def _number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _string_map(value: Any) -> bool:
    return isinstance(value, dict) and all(isinstance(v, str) for v in value.values())


def _server_parse(raw: bytes) -> Any:
    """JSON.parse over a UTF-8 decode, refusing what it refuses."""
    assert len(raw) <= MAX_FILE_BYTES
    return json.loads(raw.decode("utf-8"), parse_constant=lambda c: 1 / 0)


def _server_parse_yaml(raw: bytes) -> Any:
    """A YAML 1.2 reader other than rolecat's own (ruamel.yaml's pure one), as a model."""
    assert len(raw) <= MAX_FILE_BYTES
    return YAML(typ="safe", pure=True).load(raw.decode("utf-8"))


def assert_the_server_accepts_what_is_published(catalog: Any) -> None:
    """Every file the site publishes, in both formats, read and guarded as the server does."""
    for path, data in raw_tree.raw_files(catalog).items():
        if path.startswith("schema/"):
            continue
        value = (_server_parse if path.endswith(".json") else _server_parse_yaml)(data)
        accepts = server_accepts_index if path.startswith("index.") else server_accepts_bundle
        assert accepts(value), path


SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(catalogs())
def test_valid_catalogs_pass_and_the_server_accepts_them(
    generated: tuple[dict[str, Any], dict[str, dict[str, Any]]],
) -> None:
    index, files = generated
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        write(root, index, files, ensure_ascii=False, indent=2)
        assert update_lock(root).diagnostics == []
        result = check_catalog(root)
        assert result.diagnostics == []
        assert_the_server_accepts_what_is_published(result.catalog)


json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-5, 5)
    | st.floats(allow_nan=False)
    | st.text(max_size=5),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3)
    ),
    max_leaves=5,
)


@settings(SETTINGS, max_examples=int(os.environ.get("ROLECAT_EXAMPLES", "150")))
@given(catalogs(), st.data())
def test_whatever_we_pass_the_server_accepts(
    generated: tuple[dict[str, Any], dict[str, dict[str, Any]]], data: st.DataObject
) -> None:
    """Stricter, never looser: corrupt one value; if the check passes, the server accepts it."""
    index, files = generated
    roles = [role for file in files.values() for role in file["roles"]]
    if roles and data.draw(st.booleans()):
        # Aim at role fields: where the server's guards are most detailed.
        field = data.draw(st.sampled_from([*ROLE_FIELDS, "slug", "name", "instructions"]))
        data.draw(st.sampled_from(roles))[field] = data.draw(json_values)
    else:
        _corrupt_anywhere(data, data.draw(st.sampled_from([index, *files.values()])))
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        write(root, index, files, ensure_ascii=False, indent=2)
        update_lock(root)
        result = check_catalog(root)
        if result.ok:
            assert_the_server_accepts_what_is_published(result.catalog)


ROLE_FIELDS = ("emoji", "description", "autoStart", "launchMessage", "modelConfig")


def _corrupt_anywhere(data: st.DataObject, target: Any) -> None:
    node: Any = target
    path: list[Any] = []
    while isinstance(node, (dict, list)) and node and data.draw(st.booleans()):
        key = data.draw(
            st.sampled_from(sorted(node) if isinstance(node, dict) else range(len(node)))
        )
        path.append(key)
        node = node[key]
    if path:
        parent: Any = target
        for key in path[:-1]:
            parent = parent[key]
        parent[path[-1]] = data.draw(json_values)


@SETTINGS
@given(catalogs(), st.randoms(), st.sampled_from([None, 0, 1, 4, "\t"]), st.booleans())
def test_reformatting_does_not_change_the_lock(
    generated: tuple[dict[str, Any], dict[str, dict[str, Any]]],
    shuffle: random.Random,
    indent: int | str | None,
    ascii_only: bool,
) -> None:
    index, files = generated
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        write(root, index, files, ensure_ascii=False, indent=2)
        assert update_lock(root).diagnostics == []
        lock = (root / "content-hashes.json").read_bytes()
        reordered = {path: _shuffled(value, shuffle) for path, value in files.items()}
        write(root, _shuffled(index, shuffle), reordered, indent=indent, ensure_ascii=ascii_only)
        assert check_catalog(root).ok
        update = update_lock(root)
        assert (update.diagnostics, update.written) == ([], False)
        assert (root / "content-hashes.json").read_bytes() == lock


def _shuffled(value: Any, shuffle: random.Random) -> Any:
    """The same value with every object's keys in another order (arrays keep theirs)."""
    if isinstance(value, dict):
        keys = list(value)
        shuffle.shuffle(keys)
        return {k: _shuffled(value[k], shuffle) for k in keys}
    if isinstance(value, list):
        return [_shuffled(v, shuffle) for v in value]
    return value
