FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 PIP_NO_CACHE_DIR=1 \
    HOST=0.0.0.0 PORT=8000

WORKDIR /app
COPY pyproject.toml README.md gunicorn.conf.py ./
COPY service ./service
RUN pip install . && useradd --create-home --uid 10001 cards

USER cards
EXPOSE 8000
HEALTHCHECK --interval=30s --timeout=3s --start-period=10s \
    CMD python -c "import os, urllib.request; urllib.request.urlopen(f'http://127.0.0.1:{os.environ[\"PORT\"]}/health', timeout=2)"
# The same command `make run` and tests/test_server.py run.
CMD ["gunicorn", "--config", "gunicorn.conf.py", "service:create_app()"]
