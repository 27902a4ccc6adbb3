"""The site's own words, one table per page language; English fills in whatever a table lacks.

To give the site's interface another language, add a table under its code (the code the catalog
uses, e.g. ``"de"``) with any of the English keys, and its name in ``LANGUAGE_NAMES``. Material's
own words (search, navigation, the clipboard) come from the translations Material ships.
"""

# Russian text is meant to be Cyrillic: RUF001 (letters that look Latin) does not apply here.
# ruff: noqa: RUF001

from __future__ import annotations

FALLBACK = "en"

LANGUAGE_NAMES: dict[str, str] = {
    "en": "English",
    "ru": "Русский",
    "de": "Deutsch",
    "es": "Español",
    "fr": "Français",
    "it": "Italiano",
    "pt": "Português",
    "uk": "Українська",
    "zh": "中文",
    "ja": "日本語",
}
"""Each language named in itself, for the switcher and the sidebar; other codes show as the code."""

LABELS: dict[str, dict[str, str]] = {
    "en": {
        "overview": "Overview",
        "catalog": "Agent roles catalog",
        "intro": "The system prompts of our AI agents, grouped into bundles, in every language.",
        "bundles": "Bundles",
        "bundle": "Bundle",
        "languages": "Languages",
        "language": "Language",
        "roles": "Roles",
        "role": "Role",
        "version": "Version",
        "description": "Description",
        "auto_start": "Starts on its own",
        "server_default": "the server's default",
        "yes": "yes",
        "no": "no",
        "launch_message": "Launch message",
        "none": "none",
        "instructions": "Instructions",
        "copy_button": "Copy instructions",
        "copied": "Copied",
        "other_languages": "In other languages",
        "raw_bundle": "Raw bundle file",
        "raw_files": "Raw files",
        "server": "For the server",
        "server_intro": "Set this base URL on the server; it fetches index.json and "
        "bundles/<bundle>/<language>.json from it:",
        "site_url_unset": "site_url is not set in mkdocs.yml, so the base URL of the published "
        "site is not known here. Set AI_AGENT_ROLES_CATALOG_URL to the URL this page is published "
        "at (the folder that holds index.json).",
        "schemas": "JSON Schemas",
        "in_language": "Bundles in this language",
        "browse": "Browse",
        "model": "Model",
        "model_tier": "Model tier",
        "model_default": "server default",
        "model_written_as": "written as",
        "model_best": "the strongest tier the deployment binds",
        "model_chain": "The tiers the server tries, in order, until the deployment binds one",
        "model_driver": "driver",
        "model_workspace_provider": "the workspace's default provider",
        "model_key": "a model of its own",
        "all_tiers": "all",
        "problems": "The catalog has problems",
        "problems_intro": "The preview is paused until the catalog checks clean. Fix these and "
        "save; this page reloads by itself.",
        "pending_bump": "Not publishable yet: this role changed since the lock recorded it. Bump "
        "its version in index.json and run `rolecat check --fix`.",
        "pending_record": "Not publishable yet: the lock has not recorded this role. Run "
        "`rolecat check --fix`.",
        "palette_light": "Switch to light mode",
        "palette_dark": "Switch to dark mode",
        "palette_auto": "Follow the system's light or dark mode",
        "search_unavailable": "Search is not available here",
        "more_results": "More results",
        "filter": "Filter roles",
        "filter_placeholder": "Name, slug or description",
        "filter_count": "{shown} of {total}",
        "filter_none": "No role matches.",
        "use_it": "Use it",
        "use_it_intro": "The files this role is published in, to download or to give a server:",
        "raw_json": "Bundle file, JSON (the server today)",
        "raw_yaml": "Bundle file, YAML (the server's next generation)",
        "plain_text": "Instructions as plain text",
        # The role in the tools people work in (issue 24, part 3).
        "exports": "In your tools",
        "exports_intro": "The role as each tool's own file, its instructions unchanged. Save it "
        "where the tool looks for it, or write every role there at once with",
        "export_claude-code": "Claude Code subagent",
        "export_copilot": "GitHub Copilot custom agent",
        "export_cursor": "Cursor rule",
        "save_as": "save as",
        "install_vscode": "Install in VS Code",
        "open_in_chatgpt": "Open in ChatGPT",
        "open_in_claude": "Open in Claude",
        "open_in_too_long": "The instructions are too long to pass to a chat in a link: copy "
        "them, or download a file.",
        # Role history, version pages, health pages and feeds (issue 15). %(name)s placeholders
        # are filled in with the catalog's values, which are escaped with the rest.
        "history": "History",
        "history_full": "History starts at %(date)s, the catalog's first commit.",
        "history_shallow": "History starts at %(date)s: this build's git checkout is shallow, so "
        "older versions are not shown.",
        "history_none": "No history (%(reason)s): only the current version is shown.",
        "why_no-git": "git is not installed",
        "why_not-a-repository": "the catalog is not in a git repository",
        "why_no-commits": "the repository has no commits yet",
        "why_not-committed": "the catalog has never been committed",
        "why_off": "history is turned off in mkdocs.yml",
        "uncommitted": "not committed yet",
        "first_version": "first version",
        "at_start": "already in the catalog where the history starts",
        "removed_on": "removed from the catalog on %(date)s",
        "what_changed": "what changed",
        "changed_in": "changed: %(fields)s",
        "stale": "possibly out of date",
        "stale_note": "This translation may be out of date: %(languages)s changed in version "
        "%(version)s and this language did not.",
        "withheld": "Left out",
        "withheld_note": "Some of this version's text is not shown: it held a credential "
        "(%(fields)s).",
        "version_title": "%(name)s, version %(version)s",
        "compared_with": "Compared with version %(version)s (%(date)s).",
        "no_change": "No change in this language.",
        "new_language": "New in this language.",
        "not_in_language": "Not in this language at this version.",
        "name": "Name",
        "emoji": "Emoji",
        "unchanged_lines": "%(count)s unchanged lines",
        "health": "Catalog health",
        "health_intro": "For each language: its roles, the translations that may be out of date "
        "and the descriptions that are missing.",
        "stale_translations": "Possibly out-of-date translations",
        "missing_descriptions": "Missing descriptions",
        "since_version": "Since version",
        "changed_then": "Changed then",
        "nothing_found": "None.",
        "feed": "Atom feed of changes",
        "feed_title": "%(catalog)s: role changes",
        "changes": "Changes",
        # The gallery, the chrome and the coverage matrix (issue 24).
        "about": "About this site",
        "search_start": "Search the roles",
        "search_start_hint": "Every role's name, description and instructions, in the page's "
        "language. On any page, press / to search.",
        "filter_total": "Roles: {total}",
        "coverage": "Translation coverage",
        "coverage_intro": "Every role in every language: current; behind since the version at "
        "which other languages changed and this one did not; or missing from the role's bundle.",
        "cell_current": "current",
        "cell_behind": "behind since v%(version)s",
        "cell_from": "from v%(basis)s, %(language)s",
        "cell_missing": "missing",
        "stale_from": "Translated from version %(basis)s of the text in %(language)s; that text "
        "is now at version %(current)s.",
        "translated_from": "Translated from",
        "version_of": "version %(basis)s, %(language)s",
    },
    "ru": {
        "overview": "Обзор",
        "catalog": "Каталог ролей агентов",
        "intro": "Системные промпты наших ИИ-агентов, сгруппированные в наборы, на всех языках.",
        "bundles": "Наборы",
        "bundle": "Набор",
        "languages": "Языки",
        "language": "Язык",
        "roles": "Роли",
        "role": "Роль",
        "version": "Версия",
        "description": "Описание",
        "auto_start": "Запускается сама",
        "server_default": "по умолчанию на сервере",
        "yes": "да",
        "no": "нет",
        "launch_message": "Первое сообщение",
        "none": "нет",
        "instructions": "Инструкции",
        "copy_button": "Скопировать инструкции",
        "copied": "Скопировано",
        "other_languages": "На других языках",
        "raw_bundle": "Исходный файл набора",
        "raw_files": "Исходные файлы",
        "server": "Для сервера",
        "server_intro": "Укажите серверу этот базовый адрес; он загружает с него index.json и "
        "bundles/<набор>/<язык>.json:",
        "site_url_unset": "В mkdocs.yml не задан site_url, поэтому адрес опубликованного сайта "
        "здесь неизвестен. Укажите в AI_AGENT_ROLES_CATALOG_URL адрес, по которому "
        "опубликована эта страница (папку с index.json).",
        "schemas": "JSON-схемы",
        "in_language": "Наборы на этом языке",
        "browse": "Открыть",
        "model": "Модель",
        "model_tier": "Уровень модели",
        "model_default": "по умолчанию сервера",
        "model_written_as": "записано как",
        "model_best": "самый сильный уровень, привязанный в развёртывании",
        "model_chain": "Уровни, которые пробует сервер, по порядку, пока один не привязан",
        "model_driver": "драйвер",
        "model_workspace_provider": "провайдер рабочего пространства по умолчанию",
        "model_key": "своя модель",
        "all_tiers": "все",
        "problems": "В каталоге есть ошибки",
        "problems_intro": "Предпросмотр приостановлен, пока проверка не пройдёт. Исправьте "
        "ошибки и сохраните файл: страница обновится сама.",
        "pending_bump": "Пока нельзя опубликовать: роль изменилась после записи в файл хешей. "
        "Увеличьте её версию в index.json и выполните `rolecat check --fix`.",
        "pending_record": "Пока нельзя опубликовать: роль не записана в файл хешей. Выполните "
        "`rolecat check --fix`.",
        "palette_light": "Включить светлую тему",
        "palette_dark": "Включить тёмную тему",
        "palette_auto": "Тема как в системе",
        "search_unavailable": "Поиск здесь недоступен",
        "more_results": "Ещё результаты",
        "filter": "Отбор ролей",
        "filter_placeholder": "Название, идентификатор или описание",
        "filter_count": "{shown} из {total}",
        "filter_none": "Ни одна роль не подходит.",
        "use_it": "Как использовать",
        "use_it_intro": "Файлы, в которых опубликована роль, — чтобы скачать или указать серверу:",
        "raw_json": "Файл набора, JSON (сервер сегодня)",
        "raw_yaml": "Файл набора, YAML (следующее поколение сервера)",
        "plain_text": "Инструкции простым текстом",
        # The role in the tools people work in (issue 24, part 3).
        "exports": "В ваших инструментах",
        "exports_intro": "Роль в формате каждого инструмента, инструкции без изменений. "
        "Сохраните файл туда, где инструмент его ищет, или запишите туда все роли сразу командой",
        "export_claude-code": "Субагент Claude Code",
        "export_copilot": "Пользовательский агент GitHub Copilot",
        "export_cursor": "Правило Cursor",
        "save_as": "сохранить как",
        "install_vscode": "Установить в VS Code",
        "open_in_chatgpt": "Открыть в ChatGPT",
        "open_in_claude": "Открыть в Claude",
        "open_in_too_long": "Инструкции слишком длинные, чтобы передать их чату в ссылке: "
        "скопируйте их или скачайте файл.",
        # История ролей, страницы версий, состояние каталога и ленты (issue 15).
        "history": "История",
        "history_full": "История начинается с %(date)s, первого коммита каталога.",
        "history_shallow": "История начинается с %(date)s: сайт собран из неполной (shallow) "
        "копии git-репозитория, более ранние версии не показаны.",
        "history_none": "Истории нет (%(reason)s): показана только текущая версия.",
        "why_no-git": "git не установлен",
        "why_not-a-repository": "каталог не в git-репозитории",
        "why_no-commits": "в репозитории ещё нет коммитов",
        "why_not-committed": "каталог ещё ни разу не был закоммичен",
        "why_off": "история выключена в mkdocs.yml",
        "uncommitted": "ещё не в коммите",
        "first_version": "первая версия",
        "at_start": "уже была в каталоге, когда начинается история",
        "removed_on": "удалена из каталога %(date)s",
        "what_changed": "что изменилось",
        "changed_in": "изменилось: %(fields)s",
        "stale": "возможно, устарел",
        "stale_note": "Этот перевод, возможно, устарел: в версии %(version)s изменился текст "
        "(%(languages)s), а на этом языке — нет.",
        "withheld": "Скрыто",
        "withheld_note": "Часть текста этой версии не показана: в нём был секрет (%(fields)s).",
        "version_title": "%(name)s, версия %(version)s",
        "compared_with": "Сравнение с версией %(version)s (%(date)s).",
        "no_change": "На этом языке ничего не изменилось.",
        "new_language": "На этом языке роль появилась в этой версии.",
        "not_in_language": "В этой версии роли на этом языке не было.",
        "name": "Название",
        "emoji": "Эмодзи",
        "unchanged_lines": "Строк без изменений: %(count)s",
        "health": "Состояние каталога",
        "health_intro": "По каждому языку: роли, переводы, которые могли устареть, и "
        "недостающие описания.",
        "stale_translations": "Переводы, которые могли устареть",
        "missing_descriptions": "Нет описания",
        "since_version": "С версии",
        "changed_then": "Тогда изменились",
        "nothing_found": "Нет.",
        "feed": "Atom-лента изменений",
        "feed_title": "%(catalog)s: изменения ролей",
        "changes": "Изменения",
        # Галерея, оформление и матрица переводов (issue 24).
        "about": "О сайте",
        "search_start": "Искать роли",
        "search_start_hint": "Названия, описания и инструкции всех ролей на языке страницы. "
        "На любой странице нажмите /, чтобы начать поиск.",
        "filter_total": "Роли: {total}",
        "coverage": "Покрытие переводами",
        "coverage_intro": "Каждая роль на каждом языке: перевод актуален; отстаёт с версии, в "
        "которой изменились другие языки, а этот — нет; или его нет в наборе роли.",
        "cell_current": "актуален",
        "cell_behind": "отстаёт с v%(version)s",
        "cell_from": "с v%(basis)s, %(language)s",
        "cell_missing": "нет",
        "stale_from": "Перевод сделан с версии %(basis)s текста на языке %(language)s; сейчас "
        "этот текст в версии %(current)s.",
        "translated_from": "Переведено с",
        "version_of": "версия %(basis)s, %(language)s",
    },
}


def labels(language: str) -> dict[str, str]:
    """The labels of one page language; English fills in whatever a language lacks."""
    return {**LABELS[FALLBACK], **LABELS.get(language, {})}


def language_name(code: str) -> str:
    return LANGUAGE_NAMES.get(code, code)
