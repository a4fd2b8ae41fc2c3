"""A small decoder of SQLite's on-disk formats, to read a database as whoever copies its files.

https://www.sqlite.org/fileformat.html. It reads the main file (every page, free pages
included), the write-ahead log (every frame, stale ones too) and a rollback journal, and
decodes b-tree pages without SQLite's help:

- ``cells(page)``: every cell of a table-leaf (0x0D), index-leaf (0x0A) or index-interior
  (0x02) page as a ``Cell`` of decoded values (an overflowing payload: its local part only,
  marked ``overflow``). Table-interior pages (0x05) hold no values.
- ``free_spans(page)``: the page's freeblocks and its unallocated gap, as raw bytes (a deleted
  row lingers there unless ``secure_delete`` zeroed it); ``carve`` finds records in them, or
  in a whole page that is no b-tree page (``is_btree``): overflow and free pages.
- ``database(pages)``: the logical content of a set of page images (a snapshot: the main file
  with WAL frames laid over it), every table and index walked from ``sqlite_master``, with
  overflow chains followed.

Only UTF-8 databases are read (Django's); WAL checksums are not verified (frames are grouped
by their salt, which every restart of the log changes).
"""

from __future__ import annotations

import contextlib
import re
import struct
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

TABLE_LEAF, TABLE_INTERIOR, INDEX_LEAF, INDEX_INTERIOR = 0x0D, 0x05, 0x0A, 0x02
WAL_MAGIC = (0x377F0682, 0x377F0683)
JOURNAL_MAGIC = bytes.fromhex("d9d505f920a163d7")


@dataclass(frozen=True)
class Cell:
    page: int
    kind: int
    rowid: int | None
    values: tuple[Any, ...]
    overflow: bool = False  # only the payload's local part was decoded


@dataclass(frozen=True)
class Frame:
    index: int  # 1-based position in the WAL file
    page: int
    commit: int  # the database size in pages after this commit, 0 if not a commit frame
    salt: tuple[int, int]
    data: bytes


def varint(buf: bytes, pos: int) -> tuple[int, int]:
    """The varint at ``pos`` (1–9 bytes, big-endian, 7 bits a byte, the 9th byte whole)."""
    value = 0
    for i in range(9):
        if pos + i >= len(buf):
            raise ValueError("varint runs off the end")
        byte = buf[pos + i]
        if i == 8:
            return (value << 8) | byte, pos + 9
        value = (value << 7) | (byte & 0x7F)
        if byte < 0x80:
            return value, pos + i + 1
    raise AssertionError("unreachable")


def _serial_size(t: int) -> int:
    if t in (10, 11):
        raise ValueError("reserved serial type")
    return (0, 1, 2, 3, 4, 6, 8, 8, 0, 0)[t] if t < 10 else (t - 12) // 2


def _value(t: int, raw: bytes) -> Any:
    if t == 0:
        return None
    if t in (8, 9):
        return t - 8
    if t == 7:
        return struct.unpack(">d", raw)[0]
    if t < 7:
        return int.from_bytes(raw, "big", signed=True)
    return bytes(raw) if t % 2 == 0 else raw.decode("utf-8", errors="replace")


def record(payload: bytes, *, strict: bool = True, at: int = 0) -> tuple[Any, ...]:
    """The columns of the record at ``at``. Not ``strict``: a truncated body yields the
    columns that fit."""
    size, pos = varint(payload, at)
    if not 1 <= size <= len(payload) - at:
        raise ValueError("bad record header size")
    types = []
    while pos < at + size:
        t, pos = varint(payload, pos)
        types.append(t)
    if pos != at + size:
        raise ValueError("record header overruns")
    values, body = [], at + size
    for t in types:
        n = _serial_size(t)
        if body + n > len(payload):
            if strict:
                raise ValueError("record body truncated")
            break
        values.append(_value(t, payload[body:body + n]))
        body += n
    return tuple(values)


def _local(kind: int, total: int, usable: int) -> int:
    """How much of a payload of ``total`` bytes is kept on the b-tree page itself."""
    most = usable - 35 if kind == TABLE_LEAF else (usable - 12) * 64 // 255 - 23
    if total <= most:
        return total
    least = (usable - 12) * 32 // 255 - 23
    k = least + (total - least) % (usable - 4)
    return k if k <= most else least


def _header(page: bytes, number: int) -> tuple[int, int]:
    """The b-tree header's offset and the page type (0 when it is no b-tree page)."""
    base = 100 if number == 1 else 0
    kind = page[base] if len(page) > base else 0
    return base, kind if kind in (TABLE_LEAF, TABLE_INTERIOR, INDEX_LEAF, INDEX_INTERIOR) else 0


def is_btree(page: bytes, number: int) -> bool:
    """Whether the page is a b-tree page (else: overflow, freelist, or never used)."""
    return bool(_header(page, number)[1])


def _pointers(page: bytes, number: int) -> list[int]:
    base, kind = _header(page, number)
    if not kind:
        return []
    count = struct.unpack_from(">H", page, base + 3)[0]
    start = base + (8 if kind in (TABLE_LEAF, INDEX_LEAF) else 12)
    return [struct.unpack_from(">H", page, start + 2 * i)[0] for i in range(count)
            if start + 2 * i + 2 <= len(page)]


def _payload(page: bytes, number: int, ptr: int, usable: int
             ) -> tuple[int, int | None, bytes, int, int]:
    """(kind, rowid, local payload, full payload size, first overflow page or 0)."""
    _base, kind = _header(page, number)
    pos = ptr + (4 if kind == INDEX_INTERIOR else 0)
    total, pos = varint(page, pos)
    rowid = None
    if kind == TABLE_LEAF:
        rowid, pos = varint(page, pos)
    local = _local(kind, total, usable)
    first = struct.unpack_from(">I", page, pos + local)[0] if local < total else 0
    return kind, rowid, page[pos:pos + local], total, first


def cells(page: bytes, number: int, usable: int | None = None) -> list[Cell]:
    """Every decodable cell of a leaf or index-interior page (others: none)."""
    usable = usable or len(page)
    _base, kind = _header(page, number)
    if kind not in (TABLE_LEAF, INDEX_LEAF, INDEX_INTERIOR):
        return []
    out = []
    for ptr in _pointers(page, number):
        try:
            kind, rowid, local, total, _first = _payload(page, number, ptr, usable)
            spills = len(local) < total
            out.append(Cell(number, kind, rowid, record(local, strict=not spills), spills))
        except (ValueError, struct.error, IndexError):
            continue  # a page torn by a copy made mid-write, or no b-tree page after all
    return out


def free_spans(page: bytes, number: int) -> list[bytes]:
    """The bytes of the page's freeblocks and of the gap between its pointers and cells."""
    base, kind = _header(page, number)
    if not kind:
        return []
    spans = []
    first_free, count, content = struct.unpack_from(">HHH", page, base + 1)
    gap_start = base + (8 if kind in (TABLE_LEAF, INDEX_LEAF) else 12) + 2 * count
    spans.append(page[gap_start:content or 65536])
    seen, block = set(), first_free
    while block and block not in seen and block + 4 <= len(page):
        seen.add(block)
        nxt, size = struct.unpack_from(">HH", page, block)
        spans.append(page[block + 4:block + size])
        block = nxt
    return spans


ZEROS = re.compile(rb"\x00{32,}")


def carve(span: bytes, columns: set[int]) -> list[tuple[Any, ...]]:
    """Records found at any offset of ``span`` with one of these column counts: whole ones,
    and ones whose header-size byte was overwritten (a freeblock's 4-byte header covers a
    deleted cell's sizes and rowid, and often its record's first byte).

    Runs of 32 zero bytes or more (space that ``secure_delete`` zeroed, or never used) are
    not searched, except for the 8 bytes before each fragment (a record may begin with NULL
    columns) and as the tail of a record that begins before them.
    """
    found, starts, pos = [], [], 0
    for run in [*ZEROS.finditer(span), None]:
        end = run.start() if run else len(span)
        starts.extend(range(max(0, pos - 8), end))
        pos = run.end() if run else len(span)
    for start in starts:
        with contextlib.suppress(ValueError, struct.error):
            values = record(span, at=start)
            if len(values) in columns:
                found.append(values)
        for n in columns:
            with contextlib.suppress(ValueError, struct.error):
                found.append(_headless(span, start, n))
    return found


def _headless(span: bytes, start: int, n: int) -> tuple[Any, ...]:
    types, pos = [], start
    for _ in range(n):
        t, pos = varint(span, pos)
        types.append(t)
    values = []
    for t in types:
        size = _serial_size(t)
        if pos + size > len(span):
            raise ValueError("record body truncated")
        values.append(_value(t, span[pos:pos + size]))
        pos += size
    return tuple(values)


def read_main(path: Path) -> tuple[int, dict[int, bytes]]:
    """The page size and every page of a main database file (numbered from 1)."""
    data = path.read_bytes()
    if len(data) < 100 or not data.startswith(b"SQLite format 3\x00"):
        return 4096, {}
    size = struct.unpack_from(">H", data, 16)[0]
    size = 65536 if size == 1 else size
    return size, {i // size + 1: data[i:i + size] for i in range(0, len(data) - size + 1, size)}


def free_pages(pages: dict[int, bytes]) -> set[int]:
    """The freelist's trunk and leaf pages, as the header of page 1 lists them."""
    trunk, out = struct.unpack_from(">I", pages[1], 32)[0], set()
    while trunk and trunk in pages and trunk not in out:
        out.add(trunk)
        nxt, count = struct.unpack_from(">II", pages[trunk], 0)
        out.update(struct.unpack_from(f">{count}I", pages[trunk], 8))
        trunk = nxt
    return out


def read_wal(path: Path) -> tuple[tuple[int, int] | None, list[Frame]]:
    """The WAL's current salt and every whole frame in the file (stale ones included)."""
    data = path.read_bytes() if path.exists() else b""
    if len(data) < 32 or struct.unpack_from(">I", data, 0)[0] not in WAL_MAGIC:
        return None, []
    size = struct.unpack_from(">I", data, 8)[0]
    salt = struct.unpack_from(">II", data, 16)
    frames, pos = [], 32
    while pos + 24 + size <= len(data):
        page, commit, s1, s2 = struct.unpack_from(">IIII", data, pos)
        frames.append(Frame(len(frames) + 1, page, commit, (s1, s2),
                            data[pos + 24:pos + 24 + size]))
        pos += 24 + size
    return salt, frames


def read_journal(path: Path) -> list[tuple[int, bytes]]:
    """(page number, original page) of every record of a rollback journal."""
    data = path.read_bytes() if path.exists() else b""
    if not data.startswith(JOURNAL_MAGIC):
        return []
    sector, size = struct.unpack_from(">II", data, 20)
    out, pos = [], max(sector, 28)
    while size and pos + 8 + size <= len(data):
        number = struct.unpack_from(">I", data, pos)[0]
        if number == 0:
            break
        out.append((number, data[pos + 4:pos + 4 + size]))
        pos += 8 + size
    return out


def _full(pages: dict[int, bytes], page: bytes, number: int, ptr: int
          ) -> tuple[int | None, tuple[Any, ...]]:
    usable = len(page)
    _kind, rowid, local, total, nxt = _payload(page, number, ptr, usable)
    payload, seen = bytearray(local), set()
    while nxt and len(payload) < total and nxt in pages and nxt not in seen:
        seen.add(nxt)
        over = pages[nxt]
        payload += over[4:4 + min(usable - 4, total - len(payload))]
        nxt = struct.unpack_from(">I", over, 0)[0]
    return rowid, record(bytes(payload))


def _walk(pages: dict[int, bytes], root: int) -> list[tuple[Any, ...]]:
    rows, todo, seen = [], [root], set()
    while todo:
        number = todo.pop()
        if number in seen or number not in pages:
            continue
        seen.add(number)
        page = pages[number]
        base, kind = _header(page, number)
        if kind in (TABLE_INTERIOR, INDEX_INTERIOR):
            todo.append(struct.unpack_from(">I", page, base + 8)[0])
        for ptr in _pointers(page, number):
            if kind in (TABLE_INTERIOR, INDEX_INTERIOR):
                todo.append(struct.unpack_from(">I", page, ptr)[0])
            if kind != TABLE_INTERIOR:
                rowid, values = _full(pages, page, number, ptr)
                rows.append(values if rowid is None else (rowid, *values))
    return rows


def database(pages: dict[int, bytes]) -> dict[str, Counter[tuple[Any, ...]]]:
    """Every table's rows (rowid first) and every index's entries, by name."""
    schema = _walk(pages, 1)
    content = {"sqlite_master": Counter(schema)}
    for _rowid, _type, name, _table, root, *_sql in schema:
        if isinstance(root, int) and root > 0:
            content[name] = Counter(_walk(pages, root))
    return content

