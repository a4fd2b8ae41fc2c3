from typing import Any

from django.core.management.base import CommandParser
from django.utils.translation import gettext as _

from facilitator.management.teacher import TeacherCommand
from facilitator.network import lan_ip


class Command(TeacherCommand):
    help = "Print the addresses the teacher and the students on the same wifi open."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--port", type=int, default=8000)

    def handle(self, *args: Any, port: int, **options: Any) -> None:
        ip = lan_ip()
        self.stdout.write(_("Teacher, on this laptop:   %(url)s") % {
            "url": f"http://localhost:{port}/teacher/"})
        self.stdout.write(self.style.SUCCESS(_("Students, on the same wifi: %(url)s") % {
            "url": f"http://{ip}:{port}/"}))
        if ip.startswith("127."):
            self.stdout.write(
                self.style.WARNING(
                    _("No network found: connect this laptop to the classroom wifi so phones "
                      "can reach it.")
                )
            )
        self.stdout.write(_("Stop the server with Ctrl+C."))
