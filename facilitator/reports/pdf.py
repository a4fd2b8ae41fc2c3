"""The PDF shell every lesson module's debrief handouts share: Django templates rendered to
HTML, then WeasyPrint (a module's handouts: its ``debrief`` package, e.g.
``facilitator/lessons/state_in_class/debrief/handouts.py``).

Handouts are built on demand from the log (never stored), in the session's language (or the one
passed as ``language``: the teacher may pick the other), on A4 or US Letter. Page size,
running headers and "Page X of Y" come from CSS ``@page`` rules: ``static/css/print.css``
(shared, parsed once per process) and ``templates/reports/_page.css`` (per document).
WeasyPrint may fetch nothing but ``data:`` URIs: every chart is an SVG image inlined as a data
URI, and the fonts are the system's (DejaVu Sans on Debian).
"""

from __future__ import annotations

import base64
import functools
import re
from collections.abc import Callable
from html import escape, unescape
from typing import Any

from django.contrib.staticfiles import finders
from django.utils import formats, timezone, translation
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from weasyprint import CSS, HTML
from weasyprint.urls import URLFetcher

from facilitator.models import ClassSession

PAPERS: dict[str, str] = {"a4": "A4", "letter": "letter"}
QUESTIONS_PER_TABLE = 6
DEFAULT_PAPER = "a4"


def session_paper(session: ClassSession) -> str:
    paper = (session.options or {}).get("paper")
    return paper if paper in PAPERS else DEFAULT_PAPER


def css_string(text: str) -> str:
    """A CSS string literal (for ``content:`` in the running headers)."""
    escaped = (text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", " ")
               .replace("<", "\\3C ").replace(">", "\\3E "))  # no "</style>" in a title
    return f'"{escaped}"'


def page_counter_css() -> str:
    """'Page X of Y' as a CSS ``content`` value, the words translated."""
    text = _("Page %(page)s of %(pages)s")
    out: list[str] = []
    rest = text
    while rest:
        cut = min((i for i in (rest.find("%(page)s"), rest.find("%(pages)s")) if i >= 0),
                  default=-1)
        if cut < 0:
            out.append(css_string(rest))
            break
        if cut:
            out.append(css_string(rest[:cut]))
        if rest.startswith("%(pages)s", cut):
            out.append("counter(pages)")
            rest = rest[cut + len("%(pages)s"):]
        else:
            out.append("counter(page)")
            rest = rest[cut + len("%(page)s"):]
    return " ".join(out)


def base_context(session: ClassSession, paper: str, title: str) -> dict[str, Any]:
    return {
        "lang": translation.get_language(), "paper": PAPERS[paper], "paper_id": paper,
        "document_title": title, "header_css": css_string(title),
        "page_css": page_counter_css(),
    }


def chart_img(svg: str) -> SafeString:
    """An SVG chart as an ``<img>`` (data URI): WeasyPrint parses it outside the HTML cascade,
    faster than inline SVG (docs/performance.md, "Handouts: built once, then served"), and the
    chart's ``<desc>`` becomes the image's alt text."""
    match = re.search(r"<desc[^>]*>(.*?)</desc>", svg, flags=re.S)
    alt = unescape(match.group(1)) if match else ""
    data = base64.b64encode(svg.encode()).decode()
    return mark_safe(f'<img class="chart" alt="{escape(alt)}" '
                     f'src="data:image/svg+xml;base64,{data}">')


def _fetcher() -> URLFetcher:
    """Only ``data:`` URIs (the charts) may be loaded: a report fetches nothing else."""
    return URLFetcher(allowed_protocols={"data"}, allow_redirects=False)


@functools.cache
def _static_css(name: str) -> CSS:
    path = finders.find(f"css/{name}")
    assert isinstance(path, str), f"static/css/{name} is missing"
    with open(path, encoding="utf-8") as handle:
        return CSS(string=handle.read(), url_fetcher=_fetcher())


def print_css() -> CSS:
    """``static/css/print.css``, parsed once per process (it is the same for every report)."""
    return _static_css("print.css")


class _ReportHTML(HTML):
    """WeasyPrint's HTML with a lean user-agent stylesheet (``static/css/print-ua.css``).

    The stock HTML5 one has rules for every HTML element and form control, each matched
    against every element of a handout; ours has only the rules our handouts need (the time
    saved: docs/performance.md, "Handouts: built once, then served").
    ``_ua_stylesheets`` is WeasyPrint's own hook (pinned below 71 in pyproject.toml); if it
    ever disappears, the stock stylesheet is used and only speed is lost.
    """

    def _ua_stylesheets(self, forms: bool = False) -> list[CSS]:
        return [_static_css("print-ua.css")]


def lesson_date(session: ClassSession) -> str:
    """The day the lesson was played (or created, before it started), as the active language
    writes it: every handout's cover and running header."""
    when = session.started_at or session.created_at
    return formats.date_format(timezone.localtime(when), "DATE_FORMAT") if when else ""


def handout_pdf(session: ClassSession, html: Callable[..., str], *, language: str | None,
                **options: Any) -> bytes:
    """A handout's PDF in ``language`` (default: the lesson's): the module's ``html(session,
    language=..., **options)`` (its template filled in that language), written with the page
    headers and "Page X of Y" in the same language."""
    language = language or session.language
    page = html(session, language=language, **options)
    with translation.override(language):
        return write_pdf(page)


#: Every handout is a tagged PDF (PDF/UA-1): a screen reader gets its headings, paragraphs,
#: tables and figures in reading order, its title (``<title>``, shown instead of the file
#: name) and its language (``<html lang>``), and each chart's words (the ``alt`` that
#: ``chart_img`` takes from the chart's ``<desc>``).
PDF_VARIANT = "pdf/ua-1"


def write_pdf(html: str) -> bytes:
    return _ReportHTML(string=html, url_fetcher=_fetcher()).write_pdf(
        stylesheets=[print_css()], pdf_variant=PDF_VARIANT)


# --------------------------------------------------------------------------- class
