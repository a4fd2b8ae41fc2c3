import ipaddress
import re
from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

from facilitator.network import lan_ip

pytestmark = pytest.mark.django_db


def ensure_teacher() -> str:
    out = StringIO()
    call_command("ensure_teacher", stdout=out)
    return out.getvalue()


def printed_password(output: str) -> str | None:
    match = re.search(r"password: (\S+)", output)
    return match and match.group(1)


def test_first_run_creates_teacher_with_printed_random_password():
    output = ensure_teacher()
    password = printed_password(output)
    assert password and len(password) >= 16
    assert "username: teacher" in output
    assert "changepassword teacher" in output
    assert get_user_model().objects.get(username="teacher").check_password(password)


def test_second_run_keeps_the_password_and_prints_none():
    first = printed_password(ensure_teacher())
    hashed = get_user_model().objects.get(username="teacher").password
    output = ensure_teacher()
    assert printed_password(output) is None
    assert first not in output
    assert "Log in as teacher" in output
    assert "make teacher-password" in output
    assert get_user_model().objects.get(username="teacher").password == hashed
    assert get_user_model().objects.count() == 1


def test_every_new_teacher_gets_a_different_password():
    passwords = set()
    for _ in range(3):
        passwords.add(printed_password(ensure_teacher()))
        get_user_model().objects.all().delete()
    assert len(passwords) == 3


def test_classroom_url_prints_the_lan_address():
    out = StringIO()
    call_command("classroom_url", "--port", "8123", stdout=out)
    assert f"http://{lan_ip()}:8123/" in out.getvalue()
    assert ipaddress.ip_address(lan_ip()).version == 4
