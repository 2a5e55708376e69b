# The service image. Every input is pinned, so a commit always installs the same software:
#   base images   by digest (multi-platform index; docs/deployment.md says how to renew)
#   npm packages  by package-lock.json (integrity hashes)
#   Python        by requirements.lock and requirements-build.lock (hashes; `make lock`)
#
#   docker build --build-arg VERSION=0.1.0 --build-arg REVISION=$(git rev-parse HEAD) .

# python:3.11-slim (Python 3.11.16, Debian trixie), 2026-08-25
ARG PYTHON_IMAGE=python:3.11-slim@sha256:00f89b7f96f13d42900483da3253f8fb2e763eed7a0aa5f0358fec9d15d9f10c
# node:24-slim (Node 24.19.0), 2026-08-03; only builds the dashboard's vendored libraries
ARG NODE_IMAGE=node:24-slim@sha256:cd84903a12dbd26b46f1f3b8144a2568c41c5d37ddd0c7a80a34c7a19786b35f

# The dashboard's front-end libraries, copied out of node_modules as `make assets` does.
FROM ${NODE_IMAGE} AS assets
WORKDIR /src/service/dashboard/frontend
COPY service/dashboard/frontend/package.json service/dashboard/frontend/package-lock.json \
     service/dashboard/frontend/vendor.mjs ./
RUN npm ci --ignore-scripts --no-audit --no-fund --loglevel=error && node vendor.mjs

# The locked dependencies in a virtual environment; rebuilt only when the lock changes.
FROM ${PYTHON_IMAGE} AS dependencies
ENV PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_NO_CACHE_DIR=1 PYTHONDONTWRITEBYTECODE=1
COPY requirements.lock /tmp/
RUN python -m venv /opt/governance \
 && /opt/governance/bin/pip install --require-hashes --only-binary :all: -r /tmp/requirements.lock

# The wheel (cypher/ and the vendored libraries inside), built by the locked backend.
FROM ${PYTHON_IMAGE} AS wheel
ENV PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_NO_CACHE_DIR=1 PYTHONDONTWRITEBYTECODE=1
WORKDIR /src
COPY requirements-build.lock ./
RUN pip install --require-hashes --only-binary :all: -r requirements-build.lock
COPY pyproject.toml README.md ./
COPY cypher ./cypher
COPY service ./service
COPY --from=assets /src/service/dashboard/static/vendor ./service/dashboard/static/vendor
RUN pip wheel --no-deps --no-build-isolation --wheel-dir /dist .

# The wheel alone goes into the environment: its dependencies are the locked ones.
FROM dependencies AS install
COPY --from=wheel /dist /dist
RUN /opt/governance/bin/pip install --no-deps /dist/*.whl

FROM ${PYTHON_IMAGE}
ARG VERSION=0.1.0
ARG REVISION=unknown
LABEL org.opencontainers.image.title="governance-service" \
      org.opencontainers.image.description="Data governance service: assets, lineage, policies and quality rules on a Neo4j graph" \
      org.opencontainers.image.source="https://github.com/governance-service/governance" \
      org.opencontainers.image.licenses="Apache-2.0" \
      org.opencontainers.image.version="${VERSION}" \
      org.opencontainers.image.revision="${REVISION}"
ENV PATH=/opt/governance/bin:$PATH \
    PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 \
    GOVERNANCE_HOST=0.0.0.0 GOVERNANCE_PORT=8080
RUN groupadd --system --gid 10001 governance \
 && useradd --system --uid 10001 --gid 10001 --no-create-home --home-dir /nonexistent \
      --shell /usr/sbin/nologin governance
COPY --from=install /opt/governance /opt/governance
# Numeric, so that Kubernetes' runAsNonRoot can check it without reading /etc/passwd.
USER 10001:10001
EXPOSE 8080
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s --retries=3 \
  CMD ["python", "-c", "import sys, urllib.request; sys.exit(urllib.request.urlopen('http://127.0.0.1:8080/readyz', timeout=2).status != 200)"]
# NEO4J_URI must be set: in a container the service never starts a Neo4j of its own.
# Secrets (NEO4J_PASSWORD, GOVERNANCE_ADMIN_PASSWORD) come from the environment at run
# time, never from a build argument or a command line.
CMD ["governance", "serve"]
