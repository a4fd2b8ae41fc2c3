"""Join benchmark: from "the teacher opens the site" to "32 phones in the lobby", in browsers.

    python bench/join.py [--phones 32] [--at-once 8] [--timeout 300] [--screenshot FILE]

Everything goes through the pages, as in tests/e2e: daphne on 127.0.0.1 with a fresh SQLite
file (tests/e2e/live.py), Debian's Chromium driven by Playwright (never `playwright install`).

1. The clock starts as the teacher's browser opens the login page. The teacher logs in, presses
   "New lesson", "Create and open the projector view" and reads the join address on the
   projector (the QR code's link, with the lesson code in it).
2. Each phone (its own context, 390×844, touch) opens that address: the code is filled in; the
   student taps the nickname field, types, taps "Join" and waits for "You're in". Phones come
   ``--at-once`` at a time (a class scanning the QR code together), all in one browser.
3. The clock stops when the projector says "32 students have joined".

Clicks are counted as the script makes them (a tap on a field counts; typing does not).
A phone's join time runs from opening the address to its lobby screen. On a 2-core machine
the 33 browser pages, not the server, take most of the time: compare runs on one machine.
Prints a table and writes bench/results/join.json (git-ignored) with the core count and commit.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from playwright.async_api import Browser, Locator, Page, async_playwright, expect  # noqa: E402

from bench.harness import commit  # noqa: E402
from tests.e2e.live import (  # noqa: E402
    CHROMIUM_FLAGS,
    PASSWORD,
    PHONE,
    PROJECTOR,
    TEACHER,
    local_path,
    running_server,
)


def chromium() -> str:
    path = os.environ.get("CHROMIUM") or shutil.which("chromium")
    if not path:
        sys.exit("needs Chromium: apt-get install chromium")
    return path


class Clicks:
    def __init__(self) -> None:
        self.count = 0

    async def tap(self, locator: Locator) -> None:
        self.count += 1
        await locator.click()


async def teacher_opens_lesson(browser: Browser, url: str, clicks: Clicks,
                               phones: int = 32) -> tuple[Page, str]:
    context = await browser.new_context(base_url=url, **PROJECTOR)
    page = await context.new_page()
    await page.goto("/accounts/login/")
    await clicks.tap(page.get_by_label("Username"))
    await page.keyboard.type(TEACHER)
    await clicks.tap(page.get_by_label("Password"))
    await page.keyboard.type(PASSWORD)
    await clicks.tap(page.get_by_role("button", name="Log in"))
    await page.wait_for_url("**/teacher/")
    await clicks.tap(page.get_by_role("link", name="New lesson"))
    if phones > 32:  # more than the default class size (the lesson would be full)
        await clicks.tap(page.get_by_label("Class size"))
        await page.get_by_label("Class size").fill(str(phones))
    await clicks.tap(page.get_by_role("button", name="Create and open the projector view"))
    address = (await page.locator(".lobby .url").inner_text()).strip()
    return page, address


async def phone_joins(browser: Browser, url: str, address: str, nickname: str,
                      clicks: Clicks) -> float:
    context = await browser.new_context(base_url=url, **PHONE)
    page = await context.new_page()
    started = time.perf_counter()
    await page.goto(local_path(address))
    await clicks.tap(page.get_by_label("Your nickname"))
    await page.keyboard.type(nickname)
    await clicks.tap(page.get_by_role("button", name="Join"))
    await expect(page.get_by_role("heading", name=f"You're in, {nickname}!")).to_be_visible()
    return time.perf_counter() - started


async def run(phones: int, at_once: int, workdir: Path,
              screenshot: Path | None = None) -> dict[str, object]:
    with running_server(workdir) as url:
        async with async_playwright() as playwright:
            browser = await playwright.chromium.launch(executable_path=chromium(),
                                                       args=CHROMIUM_FLAGS)
            expect.set_options(timeout=60_000)
            teacher_clicks, student_clicks = Clicks(), Clicks()
            started = time.perf_counter()
            teacher, address = await teacher_opens_lesson(browser, url, teacher_clicks, phones)
            lesson_ready = time.perf_counter() - started
            names = [f"Student {i + 1:02d}" for i in range(phones)]
            gate = asyncio.Semaphore(at_once)

            async def one(name: str) -> float:
                async with gate:
                    return await phone_joins(browser, url, address, name, student_clicks)

            joins = await asyncio.gather(*(one(name) for name in names))
            await expect(teacher.locator(".lobby .count")).to_have_text(
                f"{phones} students have joined")
            total = time.perf_counter() - started
            if screenshot:
                await teacher.screenshot(path=str(screenshot))
            version = browser.version
            await browser.close()
    joins = sorted(joins)
    return {
        "benchmark": "join", "commit": commit(), "cores": os.cpu_count(),
        "python": sys.version.split()[0], "chromium": version, "phones": phones,
        "phones_at_once": at_once, "total_seconds": round(total, 2),
        "teacher_seconds_to_projector": round(lesson_ready, 2),
        "teacher_clicks": teacher_clicks.count,
        "clicks_per_student": round(student_clicks.count / phones, 2),
        "join_median_seconds": round(statistics.median(joins), 2),
        "join_p90_seconds": round(joins[int(0.9 * (len(joins) - 1))], 2),
        "join_max_seconds": round(joins[-1], 2),
        # Other work on the machine slows the browsers down: keep the load with the figures.
        "load_average_1min": round(os.getloadavg()[0], 2),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--phones", type=int, default=32, help="students joining (1-40)")
    parser.add_argument("--at-once", type=int, default=8, help="phones joining together")
    parser.add_argument("--timeout", type=float, default=300, help="give up after (seconds)")
    parser.add_argument("--screenshot", type=Path, help="save the projector's full lobby here")
    args = parser.parse_args()
    if not 1 <= args.phones <= 40 or args.at_once < 1:
        parser.error("--phones must be 1 to 40, --at-once at least 1")
    with tempfile.TemporaryDirectory(prefix="join-bench-") as tmp:
        result = asyncio.run(asyncio.wait_for(
            run(args.phones, args.at_once, Path(tmp), args.screenshot), args.timeout))
    rows = [
        ("phones in the lobby", f"{result['phones']}"),
        ("total: login → all in the lobby (s)", f"{result['total_seconds']:.1f}"),
        ("teacher: login → projector (s)", f"{result['teacher_seconds_to_projector']:.1f}"),
        ("teacher clicks", f"{result['teacher_clicks']}"),
        ("clicks per student", f"{result['clicks_per_student']:g}"),
        ("join time per phone, median (s)", f"{result['join_median_seconds']:.2f}"),
        ("join time per phone, p90 (s)", f"{result['join_p90_seconds']:.2f}"),
        ("join time per phone, max (s)", f"{result['join_max_seconds']:.2f}"),
        ("cores", f"{result['cores']}"),
        ("load average (1 min) at the end", f"{result['load_average_1min']:.1f}"),
    ]
    print(f"{'metric':<40}{'value':>10}")
    for label, value in rows:
        print(f"{label:<40}{value:>10}")
    out = ROOT / "bench" / "results"
    out.mkdir(parents=True, exist_ok=True)
    (out / "join.json").write_text(json.dumps(result, indent=2) + "\n")


if __name__ == "__main__":
    main()
