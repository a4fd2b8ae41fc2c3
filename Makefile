# State in Class: `make run` serves a lesson from this laptop; `make test` runs every check.

# Python: the newest python3.N (N >= 11) on PATH, else python3 (scripts/find-python); or name
# one with PYTHON=/path/to/python3.N. An existing .venv is kept (scripts/make-venv says when not).
PYTHON ?=
VENV ?= .venv
PORT ?= 8000
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
# pytest workers for `make test` and `make test-fast` (pytest-xdist): auto = one per core;
# TEST_WORKERS=0 runs in this process, one test after another (docs/testing.md).
TEST_WORKERS ?= auto
PYTEST_PARALLEL := -n $(TEST_WORKERS) --dist loadscope --no-loadscope-reorder
FAST := not slow and not e2e and not postgres and not redis

.PHONY: run test test-fast install messages catalogue teacher-password

# No access log: daphne's would print every phone's address (students are minors); errors
# still reach the terminal.
run: install messages
	$(PY) manage.py migrate --noinput -v 0
	$(PY) manage.py ensure_teacher
	$(PY) manage.py classroom_url --port $(PORT)
	exec $(VENV)/bin/daphne --access-log /dev/null -b 0.0.0.0 -p $(PORT) stateinclass.asgi:application

# The whole suite (CI runs this); how long it takes: docs/testing.md.
test: install messages
	$(VENV)/bin/ruff check .
	$(PY) -m pytest $(PYTEST_PARALLEL)

# A quick subset while working: everything but the slow, browser, PostgreSQL and Redis tests.
test-fast: install messages
	$(VENV)/bin/ruff check .
	$(PY) -m pytest $(PYTEST_PARALLEL) -m "$(FAST)"

teacher-password: install
	$(PY) manage.py changepassword teacher

# The virtualenv first (made or kept, see scripts/make-venv), then, in a second make that sees
# whether it was made anew, the packages.
install:
	@PYTHON='$(PYTHON)' sh scripts/make-venv '$(VENV)'
	@$(MAKE) --no-print-directory --silent $(STAMP)

# Reinstall only when pyproject.toml changes, so a second `make run` starts in seconds.
$(STAMP): pyproject.toml
	@echo "Installing into $(VENV) (the first time takes a minute or two)..."
	$(PY) -m pip install --quiet --quiet -e '.[dev]'
	touch $@

# Translations are compiled from locale/*/LC_MESSAGES/*.po; the .mo files are never committed.
# A catalogue that does not compile (a broken placeholder, a bad plural) stops the build.
messages: install
	@if find locale -name '*.po' | grep -q .; then \
		if command -v msgfmt >/dev/null; then \
			$(PY) manage.py compilemessages --ignore '.*' --ignore 'node_modules' -v 0 \
				|| { echo "Error: the translations do not compile (see above): fix locale/*/LC_MESSAGES/django.po." >&2; exit 1; }; \
		else \
			echo "Note: gettext (msgfmt) is not installed, so translations are skipped (English only)."; \
		fi; \
	fi

# Refresh the Spanish catalogue from the sources, then translate every new entry (see
# docs/glossary.md); tests/i18n runs the same extraction and fails on anything untranslated.
MAKEMESSAGES_OPTIONS := --ignore=.venv --ignore=artifacts --ignore=bench --ignore=tests \
	--ignore=staticfiles --no-obsolete --add-location=file
catalogue: install
	$(PY) manage.py makemessages -l es $(MAKEMESSAGES_OPTIONS)

# Benchmarks (docs/performance.md): engine, PDFs, live lessons (a class; the same class
# playing Austerity; a school of 1,000 phones on 2 daphne + Redis + PostgreSQL), and oTree side
# by side (installed on first use into bench/.otree-venv, ~1 min); the memory floor of daphne
# and Channels per socket. About 6 minutes on 2 cores.
# Needs PostgreSQL and Redis on 127.0.0.1 (BENCH_DATABASE_URL / REDIS_URL to point elsewhere on
# loopback). Results: bench/results/*.json.
.PHONY: bench
bench: install
	$(PY) bench/engine.py --games 10000
	$(PY) bench/pdf.py --runs 3
	$(PY) bench/live.py --scenario class
	$(PY) bench/live.py --scenario austerity
	$(PY) bench/floor.py
	$(PY) bench/otree_peer.py --scenario class
	$(PY) bench/live.py --scenario school
	$(PY) bench/otree_peer.py --scenario school
