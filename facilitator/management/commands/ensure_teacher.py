import secrets
from typing import Any

from django.contrib.auth import get_user_model
from django.utils.translation import gettext as _

from facilitator.management.teacher import TeacherCommand

USERNAME = "teacher"


class Command(TeacherCommand):
    help = "Make sure the teacher login exists; on first run create it and print its password."

    def handle(self, *args: Any, **options: Any) -> None:
        user_model = get_user_model()
        if user_model.objects.filter(username=USERNAME).exists():
            self.stdout.write(
                _("Log in as %(username)s (password set on first run; reset with "
                  "`make teacher-password`).") % {"username": USERNAME}
            )
            return
        password = secrets.token_urlsafe(12)
        user_model.objects.create_user(username=USERNAME, password=password)
        self.stdout.write(
            self.style.SUCCESS(_("Teacher login created. It is shown only this once: save it."))
        )
        self.stdout.write(_("  username: %(username)s\n  password: %(password)s") % {
            "username": USERNAME, "password": password})
        self.stdout.write(
            _("Change it with `python manage.py changepassword %(username)s` (or "
              "`make teacher-password`).") % {"username": USERNAME}
        )
