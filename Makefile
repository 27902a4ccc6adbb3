# The two commands of the quick start, `make site` and `make test`, work on a fresh clone:
# each creates .venv and installs what it needs first.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
# Material prints an end-of-life banner at every `mkdocs` run; upstream's own switch turns it off.
export NO_MKDOCS_2_WARNING ?= 1

.PHONY: site serve docs wheel test check ruff lint bench lighthouse mutate clean

$(BIN)/rolecat: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e .
	touch $@

$(VENV)/.test-installed: $(BIN)/rolecat
	$(BIN)/pip install --quiet -e '.[test]'
	touch $@

$(VENV)/.mutate-installed: $(VENV)/.test-installed
	$(BIN)/pip install --quiet -e '.[test,mutate]'
	touch $@

# Our catalog asks for tier words, which its deployment resolves (model_tiers in mkdocs.yml).
check: $(BIN)/rolecat
	$(BIN)/rolecat check --model-tiers

# The plugin checks the catalog before it touches site/: a bad catalog leaves site/ as it was.
# SOURCE_DATE_EPOCH (the last commit) pins the sitemap's dates, so a build is reproducible.
site: $(BIN)/rolecat
	SOURCE_DATE_EPOCH=$${SOURCE_DATE_EPOCH:-$$(git log -1 --format=%ct 2>/dev/null || echo 0)} \
	  $(BIN)/mkdocs build --strict

# MkDocs 1.6 with click > 8.2.1 does not live-reload unless --livereload is given.
# DEV_ADDR=127.0.0.1:8001 picks another address; ROLES_CATALOG_DIR another catalog.
DEV_ADDR ?= 127.0.0.1:8000
serve: $(BIN)/rolecat
	@$(BIN)/python scripts/port_free.py $(DEV_ADDR)
	$(BIN)/mkdocs serve --livereload --dirty --dev-addr $(DEV_ADDR)

# rolecat's own manual (manual/docs/) into build/manual/ (site_dir in manual/mkdocs.yml); strict,
# so a broken link or anchor fails the build.
# The sdist and the wheel, into dist/: what `pip install` takes in another repository.
wheel: $(VENV)/.test-installed
	$(BIN)/python -m build --no-isolation --outdir dist .

docs: $(BIN)/rolecat
	$(BIN)/mkdocs build --strict -f manual/mkdocs.yml

# ruff's rules and its formatting (a file that differs from `ruff format` fails), then mypy
# --strict over build_tools, site_plugins and scripts (pyproject.toml).
RUFF_PATHS := build_tools site_plugins tests bench scripts
ruff: $(VENV)/.test-installed
	$(BIN)/ruff check $(RUFF_PATHS)
	$(BIN)/ruff format --check $(RUFF_PATHS)

lint: ruff
	$(BIN)/mypy

test: $(VENV)/.test-installed lint
	$(BIN)/python -m pytest

# The performance tables of bench/README.md and whether the issue's targets hold (python -m bench -h).
# The search stage drives Chromium through Playwright, from the test extra.
# Synthetic catalogs are cached in .bench/; BENCH_ARGS="--sizes S,M --runs 1" for a quick look.
bench: $(VENV)/.test-installed
	$(BIN)/python -m bench $(BENCH_ARGS)

# Lighthouse 12's four scores of one page of each type of catalog/'s site, served gzipped on
# 127.0.0.1, beside plain MkDocs + Material with the same pages (python -m bench.lighthouse -h).
# Lighthouse comes from the npm cache of tests/support/node_tools.py; about 10 minutes on 2 cores.
# LIGHTHOUSE_ARGS="--runs 1 --pages home,role-en" for a quick look.
LIGHTHOUSE_ARGS ?=
lighthouse: $(BIN)/rolecat
	$(BIN)/python -m bench.lighthouse $(LIGHTHOUSE_ARGS)

# Mutation testing of the core modules with the fast tests ([tool.mutmut] in pyproject.toml);
# not part of `make test`. mutmut works in mutants/ and remembers its results there: a second run
# goes on where the first stopped. MUTANTS='build_tools.lock*' runs (again) the mutants named;
# MUTATE_CHILDREN the parallel workers. The upstream fixtures beside the clone are passed on by
# their absolute path, since the tests run from inside mutants/.
MUTATE_CHILDREN ?= 2
MUTANTS ?=
mutate: $(VENV)/.mutate-installed
	if [ -z "$$ROLECAT_UPSTREAM_FIXTURES" ] && [ -d ../shared/fixtures ]; then \
	  export ROLECAT_UPSTREAM_FIXTURES="$$(cd ../shared/fixtures && pwd)"; fi; \
	$(BIN)/mutmut run --max-children $(MUTATE_CHILDREN) $(MUTANTS)
	$(BIN)/mutmut results --all true | $(BIN)/python scripts/mutation_scores.py

clean:
	rm -rf $(VENV) site mutants
