# Two commands matter: `make run` and `make test`. Each sets up .venv from pyproject.toml itself.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 8000
export HOST PORT

.PHONY: run test spec lint bench profile clean

# The venv is rebuilt when pyproject.toml is newer than it.
$(BIN)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[test,bench]'
	touch $@

run: $(BIN)/.installed
	$(BIN)/gunicorn --config gunicorn.conf.py 'service:create_app()'

lint: $(BIN)/.installed
	$(BIN)/ruff check service tests bench
	$(BIN)/mypy

test: lint
	$(BIN)/pytest -n 2 --dist loadgroup

spec: $(BIN)/.installed
	$(BIN)/python -m service.spec > openapi.yaml

bench: $(BIN)/.installed
	$(BIN)/python -m bench

profile: $(BIN)/.installed
	$(BIN)/python -m bench.profile

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis
