import secrets
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand

USERNAME = "teacher"


class Command(BaseCommand):
    help = "Make sure the teacher login exists; on first run create it and print its password."

    def handle(self, *args: Any, **options: Any) -> None:
        user_model = get_user_model()
        if user_model.objects.filter(username=USERNAME).exists():
            self.stdout.write(
                f"Log in as {USERNAME} (password set on first run; "
                "reset with `make teacher-password`)."
            )
            return
        password = secrets.token_urlsafe(12)
        user_model.objects.create_user(username=USERNAME, password=password)
        self.stdout.write(
            self.style.SUCCESS("Teacher login created. It is shown only this once: save it.")
        )
        self.stdout.write(f"  username: {USERNAME}\n  password: {password}")
        self.stdout.write(
            f"Change it with `python manage.py changepassword {USERNAME}` "
            "(or `make teacher-password`)."
        )
