# State in Class: `make run` serves a lesson from this laptop; `make test` runs every check.

PYTHON ?= python3.11
VENV ?= .venv
PORT ?= 8000
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: run test install messages teacher-password

run: install messages
	$(PY) manage.py migrate --noinput -v 0
	$(PY) manage.py ensure_teacher
	$(PY) manage.py classroom_url --port $(PORT)
	exec $(VENV)/bin/daphne -b 0.0.0.0 -p $(PORT) stateinclass.asgi:application

test: install messages
	$(VENV)/bin/ruff check .
	$(PY) -m pytest

teacher-password: install
	$(PY) manage.py changepassword teacher

install: $(STAMP)

$(PY):
	$(PYTHON) -m venv $(VENV)

# Reinstall only when pyproject.toml changes, so a second `make run` starts in seconds.
$(STAMP): pyproject.toml | $(PY)
	@echo "Installing into $(VENV) (the first time takes a minute or two)..."
	$(PY) -m pip install --quiet --quiet -e '.[dev]'
	touch $@

# Translations are compiled from locale/*/LC_MESSAGES/*.po; the .mo files are never committed.
messages: install
	@if find locale -name '*.po' | grep -q .; then \
		if command -v msgfmt >/dev/null; then \
			$(PY) manage.py compilemessages --ignore '.*' --ignore 'node_modules' -v 0; \
		else \
			echo "Note: gettext (msgfmt) is not installed, so translations are skipped (English only)."; \
		fi; \
	fi
