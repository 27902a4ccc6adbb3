"""What the server does after it fetches a role: import it into Postgres, let admins edit it.

The provider's type guards (the wire contract) are only the first step. gitmost (develop
3a579489) then imports each role into Postgres, where ``text`` and ``jsonb`` refuse U+0000
(``ai-agent-roles.service.ts``); lets admins edit it through an API whose DTO caps each field
(``dto/agent-role.dto.ts``: class-validator's ``MaxLength``, that is validator.js ``isLength``);
drops a driver it does not know (``integrations/ai/ai.types.ts``: ``AI_DRIVERS``); keeps role names
unique per workspace, trimmed and lower-cased (``importFromCatalog``); and browses the catalog by
a language code of at most 16 characters (``dto/agent-role-catalog.dto.ts``). A role that passes
``rolecat check`` imports, stays editable and runs as written.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from build_tools.diagnostics import Diagnostic, Pointer, describe_pointer, show_id
from build_tools.model.catalog import Catalog
from build_tools.model.tiers import is_tier_word
from build_tools.rules.across_files import PLACEHOLDER
from build_tools.sources.javascript import trim
from build_tools.sources.json_reader import Document, strings

AI_DRIVERS: tuple[str, ...] = ("openai", "gemini", "ollama")
"""The drivers the server knows (``AI_DRIVERS`` in ``integrations/ai/ai.types.ts``, gitmost
develop 3a579489): it silently drops any other and runs the role on the workspace's default
provider. One line to update when the server learns another."""

ADMIN_LIMITS: dict[str, int] = {
    "name": 200,
    "emoji": 32,
    "description": 2_000,
    "instructions": 20_000,
    "launchMessage": 2_000,
}
"""``MaxLength`` of each field in the admin API's DTO (``dto/agent-role.dto.ts``): a longer one
imports, but an admin can never save the role again."""

CHAT_MODEL_LIMIT = 200
"""``modelConfig.chatModel``, trimmed, in the same DTO."""

STORED_TRIMMED = ("name", "emoji", "description", "launchMessage")
"""Fields the import trims, storing a blank one as null (``catalogRoleContentFields``)."""

AUTO_START_DEFAULT = True
"""What the import stores for a role without ``autoStart`` (``catalogRoleContentFields``)."""

LANGUAGE_LIMIT = 16
"""The catalog browse API's longest language code (``CatalogQueryDto``)."""


def server_length(text: str) -> int:
    """The length validator.js ``isLength`` measures: UTF-16 code units, less one per surrogate
    pair (a character beyond U+FFFF counts once) and one per variation selector U+FE0E/U+FE0F
    (an emoji with its presentation selector counts as one)."""
    return len(text) - text.count("\ufe0e") - text.count("\ufe0f")


def stored(field: str, value: Any) -> Any:
    """What the server stores for a field on import: trimmed, a blank one as null."""
    if field in STORED_TRIMMED and isinstance(value, str):
        return trim(value) or None
    return value


@dataclass(frozen=True)
class Stored:
    """A role as the import stores it (``catalogRoleContentFields``): texts trimmed, a blank one
    as none, and an absent ``autoStart`` as :data:`AUTO_START_DEFAULT`."""

    name: str | None
    emoji: str | None
    description: str | None
    launch_message: str | None
    auto_start: bool
    auto_start_defaulted: bool
    """``autoStart`` was absent: the value is the server's default."""

    @classmethod
    def of(cls, role: dict[str, Any]) -> Stored:
        auto_start = role.get("autoStart", AUTO_START_DEFAULT)
        return cls(
            stored("name", role.get("name")),
            stored("emoji", role.get("emoji")),
            stored("description", role.get("description")),
            stored("launchMessage", role.get("launchMessage")),
            auto_start is True,
            "autoStart" not in role,
        )


def no_nul(catalog: Catalog) -> Iterator[Diagnostic]:
    """U+0000 anywhere in a published string or key: Postgres refuses the whole role."""
    for document in catalog.documents():
        if _NUL_ESCAPE not in document.raw and _read_as_written(document):
            continue  # JSON writes U+0000 only as this escape: a raw one is a control character
        for pointer, text, is_key in strings(document.data):
            if "\x00" in text:
                what = "key" if is_key else "value"
                yield document.diagnostic(
                    pointer,
                    f"{_whose(document, pointer)}: the {what} holds U+0000 (NUL) at character "
                    f"{text.index(chr(0)) + 1}: Postgres text and jsonb refuse it, so the server "
                    "cannot import it (ai-agent-roles.service.ts); remove it",
                    "server-nul",
                )


_NUL_ESCAPE = b"\\u0000"


def _read_as_written(document: Document) -> bool:
    """A JSON source with no instruction file inlined: its values are all in its bytes."""
    return document.path.endswith(".json") and not document.inlined and bool(document.raw)


def _whose(document: Document, pointer: Pointer) -> str:
    """``role "one": "instructions"`` for a role's field, else the field's path in the file."""
    roles = document.data.get("roles")
    if len(pointer) > 2 and pointer[0] == "roles" and isinstance(pointer[1], int):
        role = roles[pointer[1]] if isinstance(roles, list) else None
        if isinstance(role, dict) and isinstance(role.get("slug"), str):
            return f'role "{role["slug"]}": "{describe_pointer(pointer[2:])}"'
    return '"' + describe_pointer(pointer) + '"'


def admin_limits(catalog: Catalog) -> Iterator[Diagnostic]:
    """Each field within what an admin can save again, counted as the server counts."""
    for document, position, role in _roles(catalog):
        slug = role.get("slug")
        for field, limit in ADMIN_LIMITS.items():
            value = stored(field, role.get(field))
            if (
                isinstance(value, str)
                and server_length(value) > limit
                and not value.startswith(PLACEHOLDER)  # the placeholder rule says what to write
            ):
                yield _too_long(document, ("roles", position, field), slug, field, value, limit)
        chat_model = _model_word(role, "chatModel")
        if chat_model is not None and server_length(trim(chat_model)) > CHAT_MODEL_LIMIT:
            pointer = ("roles", position, "modelConfig", "chatModel")
            field = "modelConfig.chatModel"
            yield _too_long(document, pointer, slug, field, trim(chat_model), CHAT_MODEL_LIMIT)


def _too_long(
    document: Document, pointer: Pointer, slug: Any, field: str, value: str, limit: int
) -> Diagnostic:
    return document.diagnostic(
        pointer,
        f'role "{slug}": "{field}" is {server_length(value):,} characters as the server counts '
        f"them, and its admin API saves at most {limit:,} (dto/agent-role.dto.ts): the role "
        "would import but could never be saved again; shorten it",
        "server-field-too-long",
    )


def known_drivers(catalog: Catalog) -> Iterator[Diagnostic]:
    """A driver the server does not know is dropped: the role runs on the default provider."""
    for document, position, role in _roles(catalog):
        driver = _model_word(role, "driver")
        if driver is not None and driver not in AI_DRIVERS:
            yield document.diagnostic(
                ("roles", position, "modelConfig", "driver"),
                f'role "{role.get("slug")}": driver "{driver}" is not one the server knows '
                f"({', '.join(AI_DRIVERS)}; AI_DRIVERS in integrations/ai/ai.types.ts): it would "
                "drop it silently and run the role on the workspace's default provider",
                "server-unknown-driver",
            )


def unique_names(catalog: Catalog) -> Iterator[Diagnostic]:
    """Names are unique per workspace, trimmed and lower-cased: the import renames or skips the
    second. Within a bundle that is an error; across bundles (an admin may import several into
    one workspace), a warning."""
    seen: dict[tuple[str, str], tuple[str, str, str]] = {}
    for bundle in catalog.bundles:
        for language in bundle.languages:
            file = bundle.files.get(language)
            if file is None:
                continue
            for position, role in enumerate(file.document.data.get("roles") or []):
                name = role.get("name") if isinstance(role, dict) else None
                if not isinstance(name, str):
                    continue
                key = (language, trim(name).lower())
                earlier = seen.get(key)
                if earlier is None:
                    seen[key] = (bundle.id, str(role.get("slug")), file.path)
                    continue
                other_bundle, other_slug, other_path = earlier
                if other_slug == str(role.get("slug")):
                    continue  # the same role twice: the duplicate-slug rule says so
                same = other_bundle == bundle.id
                message = (
                    f'role "{role.get("slug")}": its name "{trim(name)}" is the name of role '
                    f'"{other_slug}" ({other_path}) as the server compares names (trimmed, '
                    "lower-cased): "
                    + (
                        'importing the bundle renames one of them "… (2)" or skips it '
                        "(importFromCatalog); give each its own name"
                        if same
                        else "importing both bundles into one workspace renames one of them "
                        '"… (2)" or skips it (importFromCatalog)'
                    )
                )
                yield file.document.diagnostic(
                    ("roles", position, "name"),
                    message,
                    "server-duplicate-name" if same else "server-duplicate-name-across-bundles",
                    severity="error" if same else "warning",
                )


def language_codes(catalog: Catalog) -> Iterator[Diagnostic]:
    """The catalog browse API takes a language code of at most 16 characters."""
    for bundle in catalog.bundles:
        declared = bundle.entry.get("languages")
        for position, language in enumerate(declared if isinstance(declared, list) else []):
            if isinstance(language, str) and len(language) > LANGUAGE_LIMIT:
                yield catalog.index.diagnostic(
                    (*bundle.pointer, "languages", position),
                    f'bundle "{bundle.id}": language {show_id(language)} is {len(language)} '
                    f"characters, and the server's catalog API takes at most {LANGUAGE_LIMIT} "
                    "(CatalogQueryDto, dto/agent-role-catalog.dto.ts)",
                    "server-language-too-long",
                )


def surrounding_whitespace(catalog: Catalog) -> Iterator[Diagnostic]:
    """The import trims these fields: what is stored is not what is written."""
    for document, position, role in _roles(catalog):
        for field in STORED_TRIMMED:
            value = role.get(field)
            if isinstance(value, str) and value and trim(value) != value:
                yield document.diagnostic(
                    ("roles", position, field),
                    f'role "{role.get("slug")}": "{field}" begins or ends with whitespace, which '
                    "the server trims on import (catalogRoleContentFields)"
                    + (": it stores null" if not trim(value) else ""),
                    "server-trims",
                    severity="warning",
                )


def literal_model_words(catalog: Catalog) -> Iterator[Diagnostic]:
    """gitmost resolves no tiers (``role-model-config.ts``): it asks its provider for a model
    of the literal name a tier word is. Run where the catalog says it does not use tiers."""
    seen: set[str] = set()
    for document, position, role in _roles(catalog):
        word = _model_word(role, "chatModel")
        slug = str(role.get("slug"))
        if word is None or not is_tier_word(word) or slug in seen:
            continue
        seen.add(slug)  # once per role: it is the same in every language
        yield document.diagnostic(
            ("roles", position, "modelConfig", "chatModel"),
            f'role "{slug}": chatModel "{word}" is a tier word, but the server resolves no tiers: '
            f'it asks its provider for a model named "{word}" (role-model-config.ts); name the '
            "model, or turn on model_tiers (`--model-tiers`) where the deployment resolves them",
            "server-model-is-literal",
            severity="warning",
        )


SERVER_RULES = (
    no_nul,
    admin_limits,
    known_drivers,
    unique_names,
    language_codes,
    surrounding_whitespace,
)
"""The server's contract after the fetch, run by ``check`` on the catalog as it is now (the
history keeps what was published, whatever the server would say of it today)."""

SERVER_BUNDLE_RULES = (no_nul, admin_limits, known_drivers, language_codes, surrounding_whitespace)
"""The server's rules that look at each bundle on its own (and at the index, with its entry): run
on a catalog of some of the bundles, they give those bundles' problems."""
SERVER_CATALOG_RULES = tuple(rule for rule in SERVER_RULES if rule not in SERVER_BUNDLE_RULES)
"""The server's rules across bundles (a name taken twice)."""


def _roles(catalog: Catalog) -> Iterator[tuple[Document, int, dict[str, Any]]]:
    for bundle in catalog.bundles:
        for file in bundle.files.values():
            roles = file.document.data.get("roles")
            for position, role in enumerate(roles if isinstance(roles, list) else []):
                if isinstance(role, dict):
                    yield file.document, position, role


def _model_word(role: dict[str, Any], key: str) -> str | None:
    """``modelConfig.driver`` or ``.chatModel``, where it is a string (the schema says the rest)."""
    model = role.get("modelConfig")
    word = model.get(key) if isinstance(model, dict) else None
    return word if isinstance(word, str) else None
