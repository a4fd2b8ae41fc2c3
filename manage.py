#!/usr/bin/env python
"""Django's command-line utility for administrative tasks.

Every command runs through ``facilitator.management.database.run_command``: on a database that
was never migrated it prints one sentence ("run `make run` once") instead of a traceback.
"""

import os
import sys


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "stateinclass.settings")
    # Imported once the settings module is named, as Django's own manage.py does.
    from facilitator.management.database import run_command  # noqa: PLC0415

    sys.exit(run_command(sys.argv))


if __name__ == "__main__":
    main()
