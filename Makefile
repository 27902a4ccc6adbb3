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

site: $(BIN)/rolecat
	$(BIN)/rolecat check

serve: $(BIN)/rolecat
	$(BIN)/rolecat check

lint: $(VENV)/.test-installed
	$(BIN)/ruff check build_tools site_plugins tests bench
	$(BIN)/mypy

test: $(VENV)/.test-installed lint
	$(BIN)/python -m pytest

clean:
	rm -rf $(VENV) site
