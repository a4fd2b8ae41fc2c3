"""Presence: sockets counted per seat and per server process, with expiry."""

from datetime import timedelta

import pytest

from facilitator import presence
from facilitator.models import Presence
from tests.facilitator.lesson import make_session, seat

pytestmark = pytest.mark.django_db


@pytest.fixture
def ana():
    from facilitator import services

    session = make_session()
    services.seat_join(code=session.join_code, nickname="Ana")
    return seat(session, "Ana")


def test_a_seat_is_online_while_any_of_its_sockets_is_open(ana):
    presence.presence_join(seat_id=ana.pk)
    presence.presence_join(seat_id=ana.pk)  # a second tab
    presence.presence_leave(seat_id=ana.pk)
    assert presence.online([ana.pk]) == {ana.pk}
    presence.presence_leave(seat_id=ana.pk)
    assert presence.online([ana.pk]) == set()
    assert not Presence.objects.exists()


def test_sockets_of_a_process_that_died_stop_counting(ana, monkeypatch):
    presence.presence_join(seat_id=ana.pk)
    # Another daphne process holds a socket too, and was killed: it never said goodbye.
    Presence.objects.create(seat=ana, process="killed", sockets=1,
                            seen_at=presence.now() - timedelta(seconds=30))
    presence.presence_leave(seat_id=ana.pk)
    assert presence.online([ana.pk]) == {ana.pk}  # within its expiry it still counts
    later = presence.now() + presence.EXPIRY
    monkeypatch.setattr(presence, "now", lambda: later)
    assert presence.online([ana.pk]) == set()


def test_a_living_process_keeps_its_seats_online_by_its_heartbeat(ana, monkeypatch):
    presence.presence_join(seat_id=ana.pk)
    later = presence.now() + presence.EXPIRY * 2
    monkeypatch.setattr(presence, "now", lambda: later)
    assert presence.online([ana.pk]) == set()
    presence.presence_beat()
    assert presence.online([ana.pk]) == {ana.pk}
