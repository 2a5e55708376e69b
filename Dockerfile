# syntax=docker/dockerfile:1
# Build a wheel (with cypher/ inside it), then install it into a slim runtime image.
FROM python:3.11-slim AS build
WORKDIR /src
RUN pip install --no-cache-dir build==1.2.2
COPY pyproject.toml README.md ./
COPY service ./service
COPY cypher ./cypher
RUN python -m build --wheel --outdir /dist

FROM python:3.11-slim
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 \
    GOVERNANCE_HOST=0.0.0.0 GOVERNANCE_PORT=8080
RUN useradd --system --uid 10001 --no-create-home governance
COPY --from=build /dist/*.whl /tmp/
RUN pip install --no-cache-dir /tmp/*.whl && rm /tmp/*.whl
USER governance
EXPOSE 8080
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s --retries=3 \
  CMD python -c "import urllib.request,sys; sys.exit(0 if urllib.request.urlopen('http://127.0.0.1:8080/readyz', timeout=2).status == 200 else 1)"
# NEO4J_URI must be set: in a container the service never starts a Neo4j of its own.
CMD ["governance", "serve"]
