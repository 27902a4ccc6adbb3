"""A role's model hint as the page templates show it (``templates/pages/_model.html``)."""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping
from typing import Any

from build_tools.model.tiers import FILTER_ORDER, ModelHint, model_hint


def hint(role: dict[str, Any], *, tiers: bool = False) -> dict[str, Any]:
    """The role's ``modelConfig`` as the page shows it: plain values, for the templates and the
    memo. With ``tiers`` a tier word of a deployment that resolves them; without, what gitmost
    does with it: the model id its provider is asked for (``role-model-config.ts``).

    Shared, never to be changed: a large catalog has few distinct hints and many pages that
    show one, all held until they are written."""
    config = role.get("modelConfig")
    if not isinstance(config, dict):
        return _hint(None, None, tiers)
    driver, written = config.get("driver"), config.get("chatModel")
    return _hint(
        driver if isinstance(driver, str) else None,
        written if isinstance(written, str) else None,
        tiers,
    )


@functools.lru_cache(maxsize=1024)
def _hint(driver: str | None, written: str | None, tiers: bool) -> dict[str, Any]:
    found = model_hint({"driver": driver, "chatModel": written})
    if not tiers and written is not None:
        found = ModelHint("model", written, driver)
    return {
        "tiers": tiers,
        "kind": found.kind,
        "label": found.label,
        "written": found.written,
        "chain": list(found.chain),
        "driver": found.driver,
        "filter": found.filter_key,
    }


def described(model: dict[str, Any], words: Mapping[str, str]) -> dict[str, str | None]:
    """A model hint in words a reader understands: ``text`` what the role runs on (a tier by
    what it is good for, a model id as written, or the workspace's default), ``detail`` what
    happens where the deployment lacks that tier. The words as written go to the server's
    details, not here."""
    kind, key = model["kind"], model["filter"]
    detail = None
    if kind in ("tier", "alias", "best"):
        text = words[f"model_tier_{key}"]
        chain = model["chain"]
        if kind != "best" and len(chain) > 1:
            detail = words["model_falls_back"] % {"tier": chain[0], "rest": ", ".join(chain[1:])}
    elif kind == "model":
        text = model["written"]
    else:
        text = words["model_default"]
    return {"text": text, "detail": detail, "code": kind == "model"}


def tier_options(hints: Iterable[dict[str, Any]], words: Mapping[str, str]) -> list[dict[str, str]]:
    """What a page's tier control offers: the tiers its roles ask for, strongest first, named by
    what each is good for; nothing when they all ask for the same."""
    present = {h["filter"] for h in hints}
    if len(present) < 2:
        return []
    names = {"model": words["model_key"], "default": words["model_default"]}
    return [
        {"value": key, "label": names.get(key) or words[f"model_tier_{key}"]}
        for key in FILTER_ORDER
        if key in present
    ]
