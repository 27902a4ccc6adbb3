# The two commands of the quick start, `make site` and `make test`, work on a fresh clone:
# each creates .venv and installs what it needs first.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
# Material prints an end-of-life banner at every build; it would drown our diagnostics.
export NO_MKDOCS_2_WARNING := 1

.PHONY: site serve test check lint bench clean

$(BIN)/rolecat: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e .
	touch $@

$(VENV)/.test-installed: $(BIN)/rolecat
	$(BIN)/pip install --quiet -e '.[test]'
	touch $@

check: $(BIN)/rolecat
	$(BIN)/rolecat check

# The plugin checks the catalog before it touches site/: a bad catalog leaves site/ as it was.
# SOURCE_DATE_EPOCH (the last commit) pins the sitemap's dates, so a build is reproducible.
site: $(BIN)/rolecat
	SOURCE_DATE_EPOCH=$${SOURCE_DATE_EPOCH:-$$(git log -1 --format=%ct 2>/dev/null || echo 0)} \
	  $(BIN)/mkdocs build --strict

# MkDocs 1.6 with click > 8.2.1 does not live-reload unless --livereload is given.
# DEV_ADDR=127.0.0.1:8001 picks another address; ROLES_CATALOG_DIR another catalog.
DEV_ADDR ?= 127.0.0.1:8000
serve: $(BIN)/rolecat
	$(BIN)/mkdocs serve --livereload --dirty --dev-addr $(DEV_ADDR)

lint: $(VENV)/.test-installed
	$(BIN)/ruff check build_tools site_plugins tests bench
	$(BIN)/mypy

test: $(VENV)/.test-installed lint
	$(BIN)/python -m pytest

# The performance table of the README and whether the issue's targets hold (python -m bench -h).
# The search stage drives Chromium through Playwright, from the test extra.
# Synthetic catalogs are cached in .bench/; BENCH_ARGS="--sizes S,M --runs 1" for a quick look.
bench: $(VENV)/.test-installed
	$(BIN)/python -m bench $(BENCH_ARGS)

clean:
	rm -rf $(VENV) site
