# Two commands matter: `make run` and `make test`. Each sets up .venv from pyproject.toml itself;
# `make run` installs the service and builds the /play page (Node and npm, from Debian when missing);
# `make test` adds the test tools and the system packages the page, client and proxy tests need
# (Debian's chromium, chromium-driver and nginx), Debian's redis-server for the replay guard's and
# the table host's, and jq for the README's curl walk-through of a table.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 8000
export HOST PORT

.PHONY: run test spec lint bench soak strength profile messages system-deps web screenshots clean

# Each stamp is rebuilt when pyproject.toml is newer than it.
$(BIN)/.service: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e .
	touch $@

$(BIN)/.dev: $(BIN)/.service
	$(BIN)/pip install --quiet -e '.[test,bench]'
	touch $@

# The rules and the table host (/v1/tables) on one origin, in gevent workers (README, "Tables for
# several people"); deployed, each runs on its own (Dockerfile, deploy/).
run: $(BIN)/.service web
	WORKER_CLASS=gevent $(BIN)/gunicorn --config gunicorn.conf.py 'host:create_site()'

# The table at /play (clients/web): its types generated from openapi.yaml, type-checked, bundled
# into service/play/ (not committed), with the versions of clients/web/package-lock.json.
WEB := clients/web
web: service/play/index.html

service/play/index.html: openapi.yaml $(wildcard $(WEB)/src/*.ts $(WEB)/static/*) $(WEB)/package-lock.json
	@command -v npm >/dev/null || { apt-get update -q && apt-get install -y -q nodejs npm; }
	cd $(WEB) && npm ci --no-audit --no-fund --loglevel=error
	cd $(WEB) && npx openapi-typescript ../../openapi.yaml --output src/schema.d.ts --silent
	cd $(WEB) && npx tsc -p .
	cd $(WEB) && npx esbuild src/main.ts --bundle --format=esm --target=es2022 --minify --log-level=warning \
		--outfile=../../service/play/app.js
	cp $(WEB)/static/* service/play/

system-deps:
	@command -v chromium >/dev/null || { apt-get update -q && apt-get install -y -q chromium; }
	@command -v chromedriver >/dev/null || { apt-get update -q && apt-get install -y -q chromium-driver; }
	@command -v npm >/dev/null || { apt-get update -q && apt-get install -y -q nodejs npm; }
	@command -v nginx >/dev/null || test -x /usr/sbin/nginx || { apt-get update -q && apt-get install -y -q nginx-light; }
	@command -v redis-server >/dev/null || { apt-get update -q && apt-get install -y -q redis-server; }
	@command -v jq >/dev/null || { apt-get update -q && apt-get install -y -q jq; }

lint: $(BIN)/.dev
	$(BIN)/ruff check service host tests bench examples tools
	$(BIN)/mypy

test: lint system-deps web
	$(BIN)/pytest -n 2 --dist loadgroup

# The Russian catalogs (tools/messages.py): every message id extracted into its package's catalog,
# the translations kept, and all compiled into service/i18n/locale/ru/LC_MESSAGES/messages.mo.
messages: $(BIN)/.dev
	$(BIN)/python -m tools.messages update

# docs/play/*.png: the table of every game at a desktop's size and a phone's (tools/screenshots.py).
screenshots: $(BIN)/.dev system-deps web
	$(BIN)/python -m tools.screenshots

spec: $(BIN)/.service
	$(BIN)/python -m service.spec > openapi.yaml
	$(BIN)/python -m host.spec > host/openapi.yaml

# REF=<commit>: this checkout against that commit, interleaved (bench/ab.py, docs/performance.md).
bench: $(BIN)/.dev
	$(if $(REF),$(BIN)/python -m bench.ab $(REF),$(BIN)/python -m bench)

soak: $(BIN)/.dev system-deps
	$(BIN)/python -m bench.soak

# The computer player: its budget over HTTP (1,000 suggestions per game), then its duplicate-deal
# matches against the baselines; both write docs/strength.md. Hours on two cores: the RdeepBot-style
# player's random playouts of Bezique and Canasta most (STRENGTH_AGAINST, STRENGTH_GAMES narrow it).
strength: $(BIN)/.dev
	STRENGTH_BUDGET_CHECK=1 $(BIN)/python -m bench.strength

profile: $(BIN)/.dev
	$(BIN)/python -m bench.profile

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis
