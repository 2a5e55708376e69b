# Two commands on a fresh machine: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-$(shell cat pyproject.toml | cksum | cut -d' ' -f1)

.PHONY: help install run serve test lint unit integration clients bench neo4j-start neo4j-stop neo4j-status clean

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

install: $(STAMP)

run: install
	$(BIN)/governance neo4j start
	@echo
	@echo "  Service:  http://127.0.0.1:8080/api/v1   (OpenAPI: /api/v1/openapi.json)"
	@echo "  Token:    $(BIN)/governance token create --name me --scope admin"
	@echo "  Then:     curl -H \"Authorization: Bearer \$$TOKEN\" http://127.0.0.1:8080/api/v1/assets"
	@echo
	$(BIN)/governance serve

test: lint unit integration clients

lint: install
	$(BIN)/ruff check service tests bench
	$(BIN)/ruff format --check service tests bench
	$(BIN)/mypy

unit: install
	$(BIN)/pytest tests/unit -q

integration: install
	$(BIN)/pytest tests/integration -q

clients: install
	$(BIN)/python clients/harness.py

bench: install
	$(BIN)/python -m bench.lineage

neo4j-start: install
	$(BIN)/governance neo4j start
neo4j-stop: install
	$(BIN)/governance neo4j stop
neo4j-status: install
	$(BIN)/governance neo4j status

clean:
	-$(BIN)/governance neo4j stop
	rm -rf $(VENV) .cache .pytest_cache .mypy_cache .ruff_cache
