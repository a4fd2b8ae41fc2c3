"""What a phone's ballot leaves on the wire and on its own screen (docs/secrecy.md)."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.e2e import ui
from tests.e2e.test_phones import class_at_tax_vote


@pytest.mark.e2e
def test_every_ballot_frame_has_one_length_and_the_screen_forgets_the_choice(
        teacher: Page, phones) -> None:
    class_phones = class_at_tax_vote(teacher, phones)
    sent: dict[str, list[str]] = {}
    for phone, option in zip(class_phones[:4], "ABCD", strict=True):
        frames = sent.setdefault(option, [])
        phone.on("websocket", lambda socket, frames=frames: socket.on(
            "framesent", lambda payload: frames.append(payload)))
        ui.reload(phone)  # the new socket is recorded
        ui.vote(phone, "tax", option)
        expect(ui.in_the_bag(phone)).to_be_visible()
        # Picked up after voting, the phone shows no trace of the option ticked.
        assert phone.locator("input[name=option]").count() == 0
        assert phone.locator("input:checked").count() == 0
    ballots = {o: [f for f in frames if '"ballot"' in f] for o, frames in sent.items()}
    assert all(len(b) == 1 for b in ballots.values()), ballots
    lengths = {len(b[0]) for b in ballots.values()}
    assert len(lengths) == 1, ballots  # under TLS, the size says nothing of the option
