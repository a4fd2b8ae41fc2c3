"""Phones misbehave: a reload in the middle of a vote, the wifi dropping, a class of twenty."""

from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import Page, WebSocketRoute, expect

from tests.e2e import ui

NAMES = ["Iris", "Jonas", "Kemal", "Lucía", "Mei", "Noor", "Oskar", "Pia"]


def class_at_tax_vote(teacher: Page, phones) -> list[Page]:
    """Eight phones joined, pacts made, the lesson at round 1's tax vote."""
    address = ui.new_lesson(teacher, "Reloads and wifi")
    class_phones = []
    for name in NAMES:
        phone = phones.new()
        ui.join(phone, address, name)
        class_phones.append(phone)
    expect(teacher.locator(".lobby .count")).to_have_text("8 students have joined")
    assert ui.press_next(teacher, "click") == "pact"
    for phone in class_phones:
        ui.make_pact(phone, 2)
    for stage in ("event", "debate", "tax_vote"):
        assert ui.press_next(teacher) == stage
    return class_phones


@pytest.mark.e2e
def test_reload_and_offline_phones_vote_once(teacher: Page, phones,
                                            offsite: list[str]) -> None:
    class_phones = class_at_tax_vote(teacher, phones)
    progress = teacher.locator("[data-progress]")
    expect(progress).to_have_text("0 of 8 have voted")

    # 0. Nothing ticked: the phone shows our own message, not the browser's bubble, and
    #    nothing goes in the bag; ticking an option takes the message away.
    first = class_phones[0]
    ui.confirm_ballot(first)
    note = first.locator("#now [data-choose-first]")
    expect(note).to_be_visible()
    expect(note).to_have_text("Choose one of the options above first, then press the button.")
    expect(progress).to_have_text("0 of 8 have voted")

    # 1. A phone chooses, then reloads before confirming: nothing is in the bag yet.
    ui.choose(first, "tax", "C")
    expect(note).to_be_hidden()
    ui.reload(first)
    expect(ui.heading(first, "Tax vote")).to_be_visible()
    expect(progress).to_have_text("0 of 8 have voted")
    ui.vote(first, "tax", "C")
    expect(ui.in_the_bag(first)).to_be_visible()
    expect(progress).to_have_text("1 of 8 has voted")

    # 2. A phone confirms and reloads at once: its token may or may not have left; whichever,
    #    the phone ends up "in the bag" and the bag holds exactly one more token.
    second = class_phones[1]
    ui.choose(second, "tax", "C")
    ui.confirm_ballot(second)
    ui.reload(second)
    ballot = ui.heading(second, "Tax vote")
    expect(ui.in_the_bag(second).or_(ballot)).to_be_visible()
    if ballot.is_visible():
        ui.vote(second, "tax", "C")
    expect(ui.in_the_bag(second)).to_be_visible()
    expect(progress).to_have_text("2 of 8 have voted")

    # 3. Reloading after confirming changes nothing: no ballot comes back, nothing is added.
    ui.reload(second)
    expect(ui.in_the_bag(second)).to_be_visible()
    expect(second.locator("#now form")).to_have_count(0)
    ui.reload(first)
    expect(ui.in_the_bag(first)).to_be_visible()
    expect(progress).to_have_text("2 of 8 have voted")

    # 4. The wifi drops after the student ticked C: the phone says so (and the projector shows
    #    the seat offline); back online, it reconnects on its own, C is still ticked, and the
    #    vote goes in.
    third, name = class_phones[2], NAMES[2]
    seat = teacher.locator(".seats li", has_text=name)
    ui.choose(third, "tax", "C")
    third.context.set_offline(True)
    expect(third.locator("#connection")).to_be_visible()
    expect(third.locator("#connection")).to_have_text("Reconnecting…")
    expect(seat).to_have_class(re.compile(r"\boffline\b"))
    ui.shot(third, "phone-reconnecting")
    with ui.next_view(third):
        third.context.set_offline(False)
    expect(third.locator("#connection")).to_be_hidden()
    expect(seat).not_to_have_class(re.compile(r"\boffline\b"))
    expect(third.locator("#now input[name=option][value='2']")).to_be_checked()  # C
    ui.confirm_ballot(third)
    expect(ui.in_the_bag(third)).to_be_visible()
    expect(progress).to_have_text("3 of 8 have voted")

    # 5. The wifi drops and the student confirms anyway: the phone keeps the vote (no "no
    #    internet" page), and sends it, once, as soon as it is back. This phone's socket never
    #    says "closed" (a closing handshake that cannot finish while the network is down): the
    #    phone does not wait for it.
    fourth = class_phones[3]
    address = fourth.url
    ui.choose(fourth, "tax", "C")
    fourth.evaluate("WebSocket.prototype.close = function () {}")
    fourth.context.set_offline(True)
    expect(fourth.locator("#connection")).to_be_visible()
    ui.confirm_ballot(fourth)
    fourth.wait_for_timeout(500)
    assert fourth.url == address
    expect(fourth.locator("#connection")).to_be_visible()
    expect(progress).to_have_text("3 of 8 have voted")
    fourth.context.set_offline(False)
    expect(ui.in_the_bag(fourth)).to_be_visible()
    expect(fourth.locator("#connection")).to_be_hidden()
    expect(progress).to_have_text("4 of 8 have voted")

    # Everyone else votes; the count shows exactly eight tokens, all for C.
    for phone in class_phones[4:]:
        ui.vote(phone, "tax", "C")
        expect(ui.in_the_bag(phone)).to_be_visible()
    expect(progress).to_have_text("The bag has been counted.")
    assert ui.press_next(teacher) == "pay"
    bars = teacher.locator(".stage-panel svg.bars")
    counts = dict(re.findall(r"([ABCD]) · [^:;]+: (\d+)", bars.get_attribute("aria-label")))
    assert counts == {"A": "0", "B": "0", "C": "8", "D": "0"}, counts
    assert offsite == []


@pytest.mark.e2e
@pytest.mark.slow
def test_a_class_of_twenty_sits_at_three_tables(browser, teacher: Page, server: str) -> None:
    """Twenty phones (lighter contexts: one browser, no device emulation) → 7 + 7 + 6."""
    address = ui.new_lesson(teacher, "Twenty students")
    names = [f"Student {chr(65 + i)}" for i in range(20)]
    contexts = []
    try:
        for name in names:
            context = browser.new_context(base_url=server,
                                          viewport={"width": 390, "height": 700})
            contexts.append(context)
            ui.join(context.new_page(), address, name)
        expect(teacher.locator(".lobby .count")).to_have_text("20 students have joined")
        expect(teacher.locator(".lobby .plan")).to_have_text("Start makes 3 tables: 7 + 7 + 6.")
        ui.shot(teacher, "projector-lobby-20")
        assert ui.press_next(teacher, "click") == "pact"

        grid = teacher.locator(".tables.grid")
        boards = grid.locator("article.board")
        expect(boards).to_have_count(3)
        sizes = sorted(board.locator(".seats li").count() for board in boards.all())
        assert sizes == [6, 7, 7], sizes
        seated = " ".join(grid.locator(".seats").all_inner_texts())
        assert all(name in seated for name in names)
        for board in boards.all():
            expect(board.locator(".stage-panel")).to_contain_text("0 of")
        ui.shot(teacher, "projector-three-tables")
        # From two tables on, one compact row per table, each under the one before.
        tops = [round(board.bounding_box()["y"]) for board in boards.all()]
        assert tops == sorted(tops) and len(set(tops)) == 3, tops
        phone = contexts[0].pages[0]
        expect(phone.locator("header.bar .who")).to_contain_text(re.compile(r"Table [123]"))
    finally:
        for context in contexts:
            context.close()


@pytest.mark.e2e
def test_the_console_keeps_the_higher_count_when_frames_overtake_each_other(
        teacher: Page, phones) -> None:
    """Counts go out at once while the console's views render in the background, so a view
    rendered just before a ballot can arrive after that ballot's count (and, across two
    servers, counts can swap places). The console shows the higher count, and a counted bag
    never turns back into "7 of 8"."""
    sockets: list[tuple[WebSocketRoute, WebSocketRoute]] = []

    def through(page_side: WebSocketRoute) -> None:
        sockets.append((page_side, page_side.connect_to_server()))  # forwards both ways

    teacher.route_web_socket(re.compile(r"/ws/lesson/"), through)
    class_phones = class_at_tax_vote(teacher, phones)
    progress = teacher.locator("[data-progress]")
    ui.vote(class_phones[0], "tax", "C")
    expect(progress).to_have_text("1 of 8 has voted")
    to_page, to_server = sockets[-1]

    bag = progress.get_attribute("data-bag")

    def count(voted: int, generation: str | None = None) -> str:
        return json.dumps({"type": "progress", "table": 1, "what": "vote", "kind": "tax",
                           "voted": voted, "of": 8, "bag": generation or bag,
                           "text": f"{voted} of 8 {'has' if voted == 1 else 'have'} voted"})

    to_page.send(count(2))  # a count that overtook the view it follows
    expect(progress).to_have_text("2 of 8 have voted")
    to_page.send(count(5, "00000000"))  # a count of the bag as it was before a reopening
    teacher.wait_for_timeout(300)
    expect(progress).to_have_text("2 of 8 have voted")
    to_page.send(count(1))  # a late, lower count
    teacher.wait_for_timeout(300)
    expect(progress).to_have_text("2 of 8 have voted")
    # A view rendered before the second ballot ("1 of 8") arrives now: the count stays.
    teacher.evaluate("document.querySelector('[data-progress]').dataset.old = 'yes'")
    to_server.send(json.dumps({"type": "refresh", "id": "r1"}))
    expect(teacher.locator("[data-progress]:not([data-old])")).to_have_text("2 of 8 have voted")
    # The bag fills and is counted; a late count does not reopen it.
    for phone in class_phones[1:]:
        ui.vote(phone, "tax", "C")
    expect(progress).to_have_text("The bag has been counted.")
    to_page.send(count(7))
    teacher.wait_for_timeout(300)
    expect(progress).to_have_text("The bag has been counted.")
