# Two entry points, both safe on a fresh machine: `make play` and `make test`.
PYTHON ?= python3
HOST ?= 127.0.0.1
PORT ?= 8000
PYTEST_ARGS ?=

.PHONY: play test setup site chromium redis coturn lint bench

play: site
	@echo "Open the address printed below in a browser. Friends on your network: make play HOST=0.0.0.0 (https; README: Friends on your network)"
	$(PYTHON) -m signaling --host $(HOST) --port $(PORT)

test: site chromium redis coturn lint
	@# Browser tests run in a loopback-only network namespace: nothing can leave this machine.
	@# First the tests that open no browser, on two processes (pytest-xdist, a file per process at
	@# a time); then the browser tests, one at a time and alone: they are CPU-heavy and timed.
	@# Both always run; a run in which neither collected a test fails (docs/testing.md).
	unshare -rn sh -c 'ip link set lo up || exit 1; \
	  $(PYTHON) -m pytest -m "not browser" -n 2 --dist loadfile $(PYTEST_ARGS); a=$$?; \
	  $(PYTHON) -m pytest -m browser $(PYTEST_ARGS); b=$$?; \
	  if [ $$a -eq 5 ] && [ $$b -eq 5 ]; then echo "pytest collected no tests"; exit 1; fi; \
	  for s in $$a $$b; do if [ $$s -ne 0 ] && [ $$s -ne 5 ]; then exit $$s; fi; done'

setup:
	$(PYTHON) -m pip install -q -e '.[dev]'
	npm ci --no-audit --no-fund

site: setup
	$(PYTHON) -m web.build

chromium:
	@command -v chromium >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium; }
	@command -v unshare >/dev/null && command -v ip >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq util-linux iproute2; }

redis:
	@command -v redis-server >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq redis-server; }

coturn:
	@command -v turnserver >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq coturn; }

lint:
	$(PYTHON) -m ruff check .
	$(PYTHON) -m ruff format --check .
	$(PYTHON) -m mypy engine signaling web
	$(PYTHON) -m mypy --strict engine

bench: site chromium
	unshare -rn sh -c 'ip link set lo up && $(PYTHON) -m benchmarks'
