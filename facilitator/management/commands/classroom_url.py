from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from facilitator.network import lan_ip


class Command(BaseCommand):
    help = "Print the addresses the teacher and the students on the same wifi open."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--port", type=int, default=8000)

    def handle(self, *args: Any, port: int, **options: Any) -> None:
        ip = lan_ip()
        self.stdout.write(f"Teacher, on this laptop:   http://localhost:{port}/teacher/")
        self.stdout.write(self.style.SUCCESS(f"Students, on the same wifi: http://{ip}:{port}/"))
        if ip.startswith("127."):
            self.stdout.write(
                self.style.WARNING(
                    "No network found: connect this laptop to the classroom wifi so phones can "
                    "reach it."
                )
            )
        self.stdout.write("Stop the server with Ctrl+C.")
