"""A projector screen's fit, and a class of light students, for every game's fit tests.

Students here are light: each is its own cookie jar posting the phone's plain forms (the
HTTP fallback of the phone page), so a class of 32 or 40 costs no browser.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from playwright.sync_api import APIRequestContext, Browser, Page

from tests.e2e import ui

SIZES = [(1920, 1080), (1280, 720)]
CSRF = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')


@dataclass
class Student:
    api: APIRequestContext
    nickname: str
    voter: bool = False
    table: int = field(default=0)

    def page(self) -> str:
        return self.api.get("/play/").text()

    def post(self, **form: str) -> None:
        html = self.page()
        phase = re.search(r'id="now" class="card now" data-phase="([^"]+)"', html).group(1)
        self.api.post("/play/act/", form={"csrfmiddlewaretoken": CSRF.search(html).group(1),
                                          "expected": phase, **form})


def join_class(browser: Browser, server: str, address: str, count: int,
               first: int = 1) -> list[Student]:
    code = address.rstrip("/").rsplit("/", 1)[1]
    students = []
    for i in range(first - 1, first - 1 + count):
        api = browser.new_context(base_url=server).request
        form = api.get(ui.local_path(address)).text()
        nickname = f"S{i + 1:02d}"
        api.post("/join/", form={"csrfmiddlewaretoken": CSRF.search(form).group(1),
                                 "code": code, "nickname": nickname})
        students.append(Student(api, nickname))
    return students


def fits(teacher: Page, where: str, audit: ui.Audit | None = None) -> list[str]:
    """The page's height and width at each size, where they overflow the screen (and, with
    ``audit``, axe's findings at each size)."""
    wrong = []
    for width, height in SIZES:
        teacher.set_viewport_size({"width": width, "height": height})
        if audit is not None:
            audit.check(teacher, f"projector: {where} at {width}×{height}")
        size = teacher.evaluate("[document.documentElement.scrollWidth,"
                                " document.documentElement.scrollHeight]")
        if size[0] > width or size[1] > height:
            wrong.append(f"{where} at {width}×{height}: {size[0]}×{size[1]} px")
            ui.shot(teacher, f"fit-overflow-{where}-{width}".replace(" ", "-"), full_page=True)
    return wrong
