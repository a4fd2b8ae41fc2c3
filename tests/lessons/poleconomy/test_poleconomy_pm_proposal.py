"""The Prime Minister's proposal form: after Save it shows the saved proposal, filled in,
and a Treasury payment the Treasury cannot make is warned about, on the PM's phone and on the
game master's page (the engine's Treasury check)."""

from __future__ import annotations

import pytest

from tests.lessons.poleconomy.test_poleconomy_lesson_screens import Lesson

pytestmark = pytest.mark.django_db


def propose(lesson: Lesson, **fields: str) -> str:
    pm = lesson.state().pm
    page = lesson.phone(pm).post("/play/act/", {"type": "propose_form",
                                                "expected": lesson.now.stage_id, **fields})
    assert page.status_code == 302, page.content[:300]
    return pm


def test_a_saved_proposal_comes_back_filled_in() -> None:
    lesson = Lesson()
    lesson.start()
    lesson.to_proposal()
    other = next(n for n in ("Ana", "Ben", "Cai") if n != lesson.state().pm)
    pm = propose(lesson, salary_pm="15", tax_per_company="3", pay_to=other, pay_amount="5",
                 press_release="Roads")
    phone = lesson.phone_page(pm)
    assert 'name="salary_pm" value="15"' in phone
    assert 'name="tax_per_company" value="3"' in phone
    assert f"<option selected>{other}</option>" in phone
    assert 'name="pay_amount" value="5"' in phone and ">Roads</textarea>" in phone


def test_a_payment_from_a_treasury_too_small_is_warned_about() -> None:
    lesson = Lesson()
    lesson.start()
    lesson.to_proposal()
    treasury = lesson.state().treasury
    other = next(n for n in ("Ana", "Ben", "Cai") if n != lesson.state().pm)
    pm = propose(lesson, pay_to=other, pay_amount=str(treasury + 40), press_release="Help")
    phone = lesson.phone_page(pm)
    assert "The Treasury may not pay" in phone
    assert f"The Treasury holds ${treasury} now." in phone
    assert "would not be paid" in phone
    assert "The Treasury may not pay" in lesson.master()


def test_a_payment_the_treasury_can_make_brings_no_warning() -> None:
    lesson = Lesson()
    lesson.start()
    lesson.to_proposal()
    pm = propose(lesson, salary_pm="15")
    assert "The Treasury may not pay" not in lesson.phone_page(pm)


def test_the_form_marks_the_choice_it_shows_so_a_reset_after_save_keeps_the_proposal() -> None:
    """A phone resets the form it sent once the server acknowledges it: every select must
    mark the option it shows (the empty one too), or the reset shows "No payment"."""
    lesson = Lesson()
    lesson.start()
    lesson.to_proposal()
    pm = propose(lesson, salary_pm="15")
    assert '<option value="" selected>No payment</option>' in lesson.phone_page(pm)
    other = next(n for n in ("Ana", "Ben", "Cai") if n != pm)
    propose(lesson, pay_to=other, pay_amount="5", press_release="Roads")
    phone = lesson.phone_page(pm)
    assert '<option value="">No payment</option>' in phone
    assert f"<option selected>{other}</option>" in phone
