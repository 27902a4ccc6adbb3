"""Model tiers: what a role's ``modelConfig.chatModel`` asks of the deployment that runs it.

Deployments increasingly bind models to tier words instead of naming vendor models in every role
(``@sema-agent/core``'s ``roles.d.ts`` in the seeds). The words, as the server resolves them:

- the tiers, strongest first: ``ultra → max → pro → flash → lite``; a tier the deployment does not
  bind falls back down this chain to the first one it does (``ultra`` is reserved: bound nowhere
  today, so it always falls back);
- aliases kept for compatibility, shown as their tier: ``fable`` and ``mythos`` are ``max``,
  ``opus`` is ``pro``, ``sonnet`` is ``flash``, ``haiku`` is ``lite`` (an alias shown as written
  reads as a claim about one vendor's model, while the deployment may route it anywhere);
- ``best``: the strongest tier the deployment binds directly;
- anything else is the deployment's own model key, shown unchanged.

Lookups are exact and case-sensitive, like the server's catalog: ``Opus`` is not ``opus`` but a
model key of its own. Display only: nothing here changes what is published.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

TIER_ORDER: tuple[str, ...] = ("ultra", "max", "pro", "flash", "lite")
"""The fallback chain, strongest first (``DEFAULT_TIER_ORDER``)."""

ALIASES: dict[str, str] = {
    "fable": "max",
    "mythos": "max",
    "opus": "pro",
    "sonnet": "flash",
    "haiku": "lite",
}
"""Compatibility words and the tier each stands for (``CC_MODEL_TIER_ALIASES``)."""

BEST = "best"
"""The head of the chain the deployment actually bound."""

Kind = Literal["tier", "alias", "best", "model", "default"]

FILTER_ORDER: tuple[str, ...] = (*TIER_ORDER, BEST, "model", "default")
"""The values of :attr:`ModelHint.filter_key`, in the order pages offer them."""


@dataclass(frozen=True)
class ModelHint:
    """How a role's model is shown: the tier it asks for, the chain the server walks, the driver."""

    kind: Kind
    written: str | None
    """``chatModel`` exactly as the catalog writes it; ``None`` when the role names no model."""
    driver: str | None
    tier: str | None = None
    """The tier word, for a tier or an alias."""

    @property
    def chain(self) -> tuple[str, ...]:
        """The tiers the server tries, in order, until one is bound."""
        if self.tier is not None:
            return fallback_chain(self.tier)
        return TIER_ORDER if self.kind == "best" else ()

    @property
    def label(self) -> str:
        """The display face of the model word: a tier for an alias, the word itself otherwise."""
        return self.tier or self.written or ""

    @property
    def filter_key(self) -> str:
        """What pages narrow roles by: the tier, ``best``, ``model`` (a model key), ``default``."""
        if self.tier is not None:
            return self.tier
        return BEST if self.kind == "best" else self.kind


def fallback_chain(tier: str) -> tuple[str, ...]:
    """``pro`` -> ``("pro", "flash", "lite")``."""
    return TIER_ORDER[TIER_ORDER.index(tier) :]


def display_label(ref: str) -> str:
    """``resolveModelDisplayLabel``: an alias shows as its tier, every other word as written."""
    return ALIASES.get(ref, ref)


def is_tier_word(word: str) -> bool:
    """A tier, an alias of one, or ``best``: a word only a tier-resolving deployment reads."""
    return word in TIER_ORDER or word in ALIASES or word == BEST


def model_hint(model_config: Any) -> ModelHint:
    """The hint of a checked ``modelConfig`` (absent, null, or ``{driver?, chatModel?}``)."""
    config = model_config if isinstance(model_config, dict) else {}
    driver = config.get("driver")
    driver = driver if isinstance(driver, str) else None
    written = config.get("chatModel")
    if not isinstance(written, str):
        return ModelHint("default", None, driver)
    if written in TIER_ORDER:
        return ModelHint("tier", written, driver, written)
    if written in ALIASES:
        return ModelHint("alias", written, driver, ALIASES[written])
    if written == BEST:
        return ModelHint("best", written, driver)
    return ModelHint("model", written, driver)
