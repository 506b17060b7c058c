# The table at /play, built as `make web` builds it.
FROM node:22-slim AS web
WORKDIR /web
COPY clients/web/package.json clients/web/package-lock.json clients/web/tsconfig.json ./
RUN npm ci --no-audit --no-fund
COPY clients/web/src ./src
COPY clients/web/static ./static
COPY openapi.yaml /openapi.yaml
RUN npx openapi-typescript /openapi.yaml --output src/schema.d.ts \
    && npx tsc -p . \
    && npx esbuild src/main.ts --bundle --format=esm --target=es2022 --minify --outfile=/play/app.js \
    && cp static/* /play/

FROM python:3.11-slim
# The package's version (service/version.py); tests/test_version.py holds this to it.
LABEL org.opencontainers.image.title="card-rules-service" org.opencontainers.image.version="2.8.0"

ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 PIP_NO_CACHE_DIR=1 \
    HOST=0.0.0.0 PORT=8000

WORKDIR /app
COPY pyproject.toml README.md gunicorn.conf.py ./
COPY service ./service
COPY host ./host
COPY --from=web /play ./service/play
# /var/lib/card-rules: in compose, the replay guard's SQLite file (the rules) and the tables'
# (the table host) (a named volume mounted there starts as a copy of this directory, so it
# belongs to the user too).
RUN pip install . && useradd --create-home --uid 10001 cards \
    && install -d -o cards -g cards -m 700 /var/lib/card-rules

USER cards
EXPOSE 8000
HEALTHCHECK --interval=30s --timeout=3s --start-period=10s \
    CMD python -c "import os, urllib.request; urllib.request.urlopen(f'http://127.0.0.1:{os.environ[\"PORT\"]}/health', timeout=2)"
# The rules service: the command tests/test_server.py runs. The table host (host/, /v1/tables)
# is the same image with another app and gevent workers; compose.yaml's `tables` service and
# deploy/kubernetes/tables.yaml run it so:
#   WORKER_CLASS=gevent gunicorn --config gunicorn.conf.py 'host:create_app()'
CMD ["gunicorn", "--config", "gunicorn.conf.py", "service:create_app()"]
