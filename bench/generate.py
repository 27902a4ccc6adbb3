"""Synthetic catalogs shaped like the real one: bundles x roles x languages, long instructions.

``python -m bench.generate DIR --roles 500`` writes one; the runner makes S, M and L itself.
"""

from __future__ import annotations

import argparse
import json
import random
from pathlib import Path

from build_tools.check import update_lock

ROLES_PER_BUNDLE = 25
"""Keeps every bundle file well under the server's 1,000,000-byte cap with 8,000-char prompts."""


def _words(text: str) -> list[str]:
    return text.split()


WORDS = {
    "en": _words(
        "review change code test failure service request deploy release note reader author "
        "structure clarity evidence source claim metric latency budget owner rollback incident "
        "summary example command parameter default error message user team decision risk"
    ),
    "ru": _words(
        "проверка изменение код тест сбой сервис запрос выкладка релиз заметка читатель автор "
        "структура ясность довод источник утверждение метрика задержка бюджет владелец откат "
        "инцидент итог пример команда параметр ошибка сообщение пользователь решение риск"
    ),
}
EMOJI = ["🔎", "🧪", "🚨", "📝", "📣", "🌐", "🧭", "✍️"]


def _text(rng: random.Random, language: str, length: int) -> str:
    words = WORDS.get(language, WORDS["en"])
    paragraphs, size = [], 0
    while size < length:
        sentences = []
        for _ in range(rng.randint(3, 6)):
            sentence = " ".join(rng.choice(words) for _ in range(rng.randint(6, 14)))
            sentences.append(sentence.capitalize() + ".")
        paragraph = " ".join(sentences)
        if rng.random() < 0.4:
            paragraph = "\n".join(f"- {s}" for s in sentences)
        paragraphs.append(paragraph)
        size += len(paragraph) + 2
    # Stripped: the server trims a text, and the check warns of an edge it would trim.
    return "\n\n".join(paragraphs)[:length].strip()


def generate(
    root: Path,
    roles: int,
    languages: tuple[str, ...] = ("en", "ru"),
    instructions: int = 8000,
    seed: int = 1,
) -> Path:
    """Write a valid catalog with its lock into ``root`` and return it."""
    rng = random.Random(seed)
    bundles = []
    for number in range((roles + ROLES_PER_BUNDLE - 1) // ROLES_PER_BUNDLE):
        bundle_id = f"bundle-{number:04d}"
        slugs = [
            f"role-{i:05d}"
            for i in range(number * ROLES_PER_BUNDLE, min(roles, (number + 1) * ROLES_PER_BUNDLE))
        ]
        bundles.append(
            {
                "id": bundle_id,
                "name": {lang: f"{bundle_id} {_text(rng, lang, 20)}" for lang in languages},
                "description": {lang: _text(rng, lang, 120) for lang in languages},
                "languages": list(languages),
                "roles": [{"slug": slug, "version": 1} for slug in slugs],
            }
        )
        shared = {slug: (rng.choice(EMOJI), rng.random() < 0.5) for slug in slugs}
        for lang in languages:
            entries = [
                {
                    "slug": slug,
                    "emoji": shared[slug][0],
                    # Unique per language, as the server wants names (importFromCatalog).
                    "name": f"{_text(rng, lang, 30).strip()} {slug}",
                    "description": _text(rng, lang, 160),
                    "instructions": _text(rng, lang, instructions),
                    "autoStart": shared[slug][1],
                    "launchMessage": _text(rng, lang, 80) if shared[slug][1] else None,
                }
                for slug in slugs
            ]
            _write(
                root / "bundles" / bundle_id / f"{lang}.json",
                {
                    "schemaVersion": 1,
                    "language": lang,
                    "roles": entries,
                },
            )
    _write(root / "index.json", {"schemaVersion": 1, "bundles": bundles})
    update = update_lock(root)
    assert not update.diagnostics, update.diagnostics[:3]
    return root


def _write(path: Path, value: object) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(value, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("directory", type=Path)
    parser.add_argument("--roles", type=int, default=500)
    parser.add_argument("--instructions", type=int, default=8000)
    args = parser.parse_args()
    generate(args.directory, args.roles, instructions=args.instructions)


if __name__ == "__main__":
    main()
