# Two commands on a fresh machine: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-$(shell cat pyproject.toml | cksum | cut -d' ' -f1)

FRONTEND := service/dashboard/frontend
VENDOR := service/dashboard/static/vendor
VENDOR_STAMP := $(VENDOR)/.installed-$(shell cat $(FRONTEND)/package-lock.json 2>/dev/null | cksum | cut -d' ' -f1)
CHROMIUM ?= /usr/bin/chromium

.PHONY: help install assets browser run serve test lint unit integration e2e clients bench bench-dashboard neo4j-start neo4j-stop neo4j-status clean

help:
	@echo "make run     install, start the local Neo4j and the service on 127.0.0.1:8080"
	@echo "make test    lint, type-check, and every test against a real Neo4j (clients included)"
	@echo "make bench   benchmarks against the raw Neo4j driver (bench/)"

$(STAMP): pyproject.toml
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "Python 3.11+ is required")'
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	@rm -f $(VENV)/.installed-*
	@touch $@

# The dashboard's front-end libraries: pinned by package-lock.json, from the npm
# registry, copied into static/vendor/ and served by the service itself.
$(VENDOR_STAMP): $(FRONTEND)/package-lock.json $(FRONTEND)/vendor.mjs
	npm ci --prefix $(FRONTEND) --no-audit --no-fund --loglevel=error
	node $(FRONTEND)/vendor.mjs
	@rm -f $(VENDOR)/.installed-*
	@touch $@

assets: $(VENDOR_STAMP)

install: $(STAMP) assets

# Browser tests drive Debian's Chromium (Playwright's own download is not used).
browser:
	@test -x $(CHROMIUM) || { \
	  echo "installing Debian's chromium for the browser tests"; \
	  if [ "$$(id -u)" = 0 ]; then apt-get update -qq && apt-get install -y -qq chromium >/dev/null; \
	  else sudo apt-get update -qq && sudo apt-get install -y -qq chromium >/dev/null; fi; }

run: install
	$(BIN)/governance neo4j start
	@echo
	@echo "  Dashboard: http://127.0.0.1:8080/   sign in as 'admin' with the password printed"
	@echo "             below on the first start (or GOVERNANCE_ADMIN_PASSWORD if you set it);"
	@echo "             lost it? $(BIN)/governance user set-password --username admin"
	@echo "  API:       http://127.0.0.1:8080/api/v1   (OpenAPI: /api/v1/openapi.json); make a"
	@echo "             token under Settings → API Tokens, then"
	@echo "             curl -H \"Authorization: Bearer \$$TOKEN\" http://127.0.0.1:8080/api/v1/assets"
	@echo
	$(BIN)/governance serve

test: lint unit integration e2e clients

lint: install
	$(BIN)/ruff check service tests bench
	$(BIN)/ruff format --check service tests bench
	$(BIN)/mypy

unit: install
	$(BIN)/pytest tests/unit -q

integration: install
	$(BIN)/pytest tests/integration -q

e2e: install browser
	$(BIN)/pytest tests/e2e -q

clients: install
	$(BIN)/python clients/harness.py

bench: install
	$(BIN)/python -m bench.lineage

bench-dashboard: install browser
	$(BIN)/python -m bench.dashboard

neo4j-start: install
	$(BIN)/governance neo4j start
neo4j-stop: install
	$(BIN)/governance neo4j stop
neo4j-status: install
	$(BIN)/governance neo4j status

clean:
	-$(BIN)/governance neo4j stop
	rm -rf $(VENV) .cache .pytest_cache .mypy_cache .ruff_cache
