"""What a screen reader gets from a handout PDF: its tags (the structure tree), its title and
language, each figure's alternative text, and its text in reading order.

Read with poppler's ``pdfinfo`` (title, "Tagged", the structure tree as text) and by
inflating the PDF's streams (WeasyPrint packs the catalogue and the structure elements into
compressed object streams, where ``/Lang`` and each figure's ``/Alt`` are).
"""

from __future__ import annotations

import logging
import re
import subprocess
import zlib
from pathlib import Path
from typing import Any

from tests.reports.conftest import pdf_info, poppler


def _objects(pdf: bytes) -> bytes:
    """The PDF's bytes with every Flate stream inflated after them."""
    out = [pdf]
    for match in re.finditer(rb"stream\r?\n(.*?)\r?\nendstream", pdf, flags=re.S):
        try:
            out.append(zlib.decompress(match.group(1)))
        except zlib.error:
            continue
    return b"\n".join(out)


def _string(raw: bytes) -> str:
    """A PDF string: ``(literal)`` or ``<hex>`` (UTF-16 with a byte-order mark, or bytes)."""
    if raw.startswith(b"<"):
        data = bytes.fromhex(raw[1:-1].decode())
        return data.decode("utf-16") if data.startswith(b"\xfe\xff") else data.decode("latin-1")
    body = raw[1:-1]
    body = re.sub(rb"\\([()\\])", rb"\1", body)
    if body.startswith(b"\xfe\xff"):
        return body.decode("utf-16")
    return body.decode("latin-1")


_VALUE = rb"(\((?:\\.|[^\\)])*\)|<[0-9A-Fa-f]*>)"


def strings(pdf: bytes, key: str) -> list[str]:
    """Every string value of ``/key`` in the document (e.g. ``Lang``, ``Alt``)."""
    pattern = rb"/" + key.encode() + rb"\s*" + _VALUE
    return [_string(m.group(1)) for m in re.finditer(pattern, _objects(pdf), flags=re.S)]


def marked(pdf: bytes) -> bool:
    """The catalogue says the document is tagged (``/MarkInfo << /Marked true >>``) and has a
    structure tree."""
    data = _objects(pdf)
    return (re.search(rb"/MarkInfo\s*<<\s*/Marked\s+true", data) is not None
            and b"/StructTreeRoot" in data)


def language(pdf: bytes) -> str:
    """The document's language (the catalogue's ``/Lang``; WeasyPrint writes only that one)."""
    langs = strings(pdf, "Lang")
    assert langs, "the PDF has no /Lang"
    return langs[0]


def figure_alts(pdf: bytes) -> list[str]:
    """The alternative text of every figure, in the document's order."""
    return strings(pdf, "Alt")


def title(pdf: bytes, tmp: Path) -> str:
    return pdf_info(pdf, tmp).get("Title", "")


def structure(pdf: bytes, tmp: Path) -> str:
    """The structure tree with its text (``pdfinfo -struct-text``): what a screen reader reads,
    in its order."""
    path = tmp / "tagged.pdf"
    path.write_bytes(pdf)
    return subprocess.run([poppler("pdfinfo"), "-struct-text", str(path)], capture_output=True,
                          text=True, check=True).stdout


def tagged_words(pdf: bytes, tmp: Path) -> str:
    """The text of the structure tree in reading order, whitespace collapsed."""
    quoted = re.findall(r'^\s*"(.*)"\s*$', structure(pdf, tmp), flags=re.M)
    return " ".join(" ".join(quoted).split())


def headings(pdf: bytes, tmp: Path) -> list[str]:
    """Each heading's tag and text (``H1 How each country ended``), in reading order."""
    out: list[str] = []
    current: list[str] | None = None
    depth = 0
    for line in structure(pdf, tmp).splitlines():
        indent = len(line) - len(line.lstrip())
        stripped = line.strip()
        if current is not None and indent <= depth and not stripped.startswith('"'):
            out.append(" ".join(" ".join(current).split()))
            current = None
        tag = re.match(r"(H[1-6])\b", stripped)
        if tag and current is None:
            current, depth = [tag.group(1)], indent
        elif current is not None and stripped.startswith('"'):
            current.append(stripped.strip('"'))
    if current is not None:
        out.append(" ".join(" ".join(current).split()))
    return out


def in_order(text: str, *phrases: str) -> bool:
    """Each phrase is in ``text``, each after the one before."""
    at = 0
    for phrase in phrases:
        found = text.find(phrase, at)
        if found < 0:
            return False
        at = found + len(phrase)
    return True


class WeasyPrintErrors(logging.Handler):
    """WeasyPrint's errors while the block runs (``with WeasyPrintErrors() as errors``): with
    PDF/UA it logs an image without alternative text, a document without a language."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append(record.getMessage())

    def __enter__(self) -> WeasyPrintErrors:
        logging.getLogger("weasyprint").addHandler(self)
        return self

    def __exit__(self, *exc: object) -> None:
        logging.getLogger("weasyprint").removeHandler(self)


def written(session: Any, seat_id: int | None = None) -> dict[str, Any]:
    """A lesson's class handout in English and its student pages (or ``seat_id``'s) in
    Spanish, through the module's debrief, with WeasyPrint's errors while writing them."""
    debrief = session.lesson.reports()
    with WeasyPrintErrors() as errors:
        return {"class": debrief.class_handout(session, paper="a4", language="en"),
                "es": debrief.student_handouts(session, paper="a4", seat_id=seat_id,
                                               language="es"),
                "errors": errors.messages}
