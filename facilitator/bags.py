"""Secret ballots, stored sealed (docs/secrecy.md). Call these under the table's row lock.

A bag is opened by a teacher's step with a fresh key, kept only in the key store
(``facilitator.ballot_keys``). Casting writes two rows and nothing else: the seat's receipt
and its option sealed under the key (``facilitator.sealing``); no counter moves, no time is
kept. Counting opens every sealed ballot into the tally, deletes them, marks the bag counted
and destroys the key after the commit. A bag whose count is undone, or whose key was lost, is
emptied and opened again under a new key and name: its ballots are never counted twice.
"""

from __future__ import annotations

import hashlib
import secrets
import uuid
from collections import Counter

from django.db import IntegrityError, connection, transaction
from django.utils.translation import gettext as _

from facilitator import ballot_keys
from facilitator.errors import ServiceError
from facilitator.kept_reads import kept
from facilitator.models import Bag, BallotReceipt, SealedBallot, Seat, Table, TeacherStep
from facilitator.rows import Rows
from facilitator.sealing import fingerprint, new_key, seal, unseal

# The ballot's statements are fixed SQL (docs/performance.md): the open bag with its voters
# in one, then the receipt and the sealed ballot.
BAG = Rows(Bag)
RECEIPT = Rows(BallotReceipt)
SEALED = Rows(SealedBallot)
_OPEN_BAG_SQL = (f"SELECT {BAG.columns('b')}, r.seat_id FROM {BAG.table} b "
                 f"LEFT JOIN {RECEIPT.table} r ON r.bag_id = b.id "
                 "WHERE b.table_id = %s AND b.status = %s")
_RECEIPT_SQL = f"INSERT INTO {RECEIPT.table} (id, bag_id, seat_id) VALUES (%s, %s, %s)"
_SEALED_SQL = f"INSERT INTO {SEALED.table} (id, bag_id, sealed) VALUES (%s, %s, %s)"
_SEALED_OF_BAG_SQL = f"SELECT sealed FROM {SEALED.table} WHERE bag_id = %s"
_EMPTY_BAG_SQL = f"DELETE FROM {SEALED.table} WHERE bag_id = %s"
_COUNTED_SQL = (f"UPDATE {BAG.table} SET status = %s, counted_by_id = %s, reopened = '' "
                "WHERE id = %s")

UNDONE = "undo"
LOST = "lost"


def _keys() -> ballot_keys.KeyStore:
    return ballot_keys.key_store()


def _unavailable() -> ServiceError:
    return ServiceError("keys_unavailable", _(
        "Votes cannot be taken right now: the server cannot reach its ballot keys. Try again "
        "in a moment."), status=503)


def _put_key(bag: Bag) -> None:
    """A new key and name for ``bag`` (not saved here), held by the key store only."""
    key = new_key()
    store = _keys()
    try:
        bag.store = store.store_id()
        store.put(bag.key_ref, key)
    except ballot_keys.UnsafeKeyStore as exc:
        raise ServiceError("unsafe_key_store", _(
            "Votes cannot open: the server's Redis would save ballot keys to disk (%(why)s). "
            "See the README, Production.") % {"why": exc}, status=503) from None
    except ballot_keys.StoreDown:
        raise _unavailable() from None
    bag.fingerprint = fingerprint(key)


def _destroy_after_commit(name: str) -> None:
    transaction.on_commit(lambda: _keys().delete(name))


def bag_open(*, table: Table, decision: str, options: list[str],
             step: TeacherStep | None, weights: dict[str, int] | None = None) -> Bag:
    """A new empty bag for ``decision`` at ``table``; ``weights``: each voter's weight by
    player name, for a weighted ballot (its count then publishes the outcome only)."""
    bag = Bag(table=table, decision=decision, options=options, key_ref=secrets.token_hex(16),
              weights=weights or {}, step=step,
              counted_before=decision in Table.objects.values_list(
                  "counted", flat=True).get(pk=table.pk))
    _put_key(bag)
    bag.save()
    return bag


def generation(bag: Bag) -> str:
    """Names this filling of the bag for the screens (it changes when the bag is reopened),
    so a count of the bag as it was is never shown for the bag as it is. One-way: it does
    not give the key's name in the store."""
    return generation_of(bag.key_ref)


def generation_of(key_ref: str) -> str:
    """``generation`` of the bag whose key is named ``key_ref``."""
    return hashlib.sha256(b"bag generation\x00" + key_ref.encode()).hexdigest()[:8]


def open_bag(table: Table) -> Bag | None:
    reads = kept(table.pk)
    if reads is not None:  # a screen being rendered that has read the table already
        found = reads.open_bags.get(table.pk)
        return None if found is None else found.bag
    return Bag.objects.filter(table=table, status=Bag.Status.OPEN).first()


def open_bag_voters(table: Table) -> tuple[Bag | None, set[int]]:
    """The table's open bag (if any) and the seats whose token is in it: one statement."""
    with connection.cursor() as cursor:
        cursor.execute(_OPEN_BAG_SQL, [table.pk, Bag.Status.OPEN.value])
        rows = cursor.fetchall()
    if not rows:
        return None, set()
    bag = BAG.load(rows[0][:len(BAG)])
    bag.table = table
    return bag, {row[-1] for row in rows if row[-1] is not None}


def bag_key(bag: Bag) -> bytes | None:
    """The bag's key, if this process can reach it (the fingerprint proves it is the bag's)."""
    try:
        key = _keys().get(bag.key_ref)
    except ballot_keys.StoreDown:
        raise _unavailable() from None
    return key if key is not None and fingerprint(key) == bag.fingerprint else None


def key_lost(bag: Bag) -> bool:
    """The bag's key is gone for good, as this process may tell (see ``ballot_keys``)."""
    return bag_key(bag) is None and _keys().may_declare_lost()


def key_unreachable() -> ServiceError:
    return ServiceError("keys_elsewhere", _(
        "This vote's ballot keys are held by the running server: count it from the teacher's "
        "console."), status=409)


def weight_of(bag: Bag, seat: Seat) -> int:
    """The seat's weight in the bag (1 in an unweighted ballot)."""
    return int(bag.weights.get(seat.player_name, 1)) if bag.weights else 1


def bag_cast(*, bag: Bag, seat: Seat, index: int, key: bytes, weight: int = 1) -> None:
    """Seat's token in the bag: its receipt, and its option (with its weight) sealed. One
    ballot per seat."""
    # No savepoint: should the unique constraint fire, the error leaves the caller's service
    # and its whole transaction is rolled back.
    with connection.cursor() as cursor:
        try:
            cursor.execute(_RECEIPT_SQL, [RECEIPT.prep("id", uuid.uuid4()), bag.pk, seat.pk])
        except IntegrityError:
            raise ServiceError("already_voted", _("Your token is already in the bag."),
                               status=409) from None
        cursor.execute(_SEALED_SQL, [SEALED.prep("id", uuid.uuid4()), bag.pk,
                                     SEALED.prep("sealed", seal(key, bag.key_ref, index,
                                                                weight))])


def voter_ids(bag: Bag) -> set[int]:
    reads = kept(bag.table_id)
    if reads is not None:
        found = reads.open_bags.get(bag.table_id)
        if found is not None and found.bag.pk == bag.pk:
            return {seat for seat, _name in found.voters}
    return set(bag.receipts.values_list("seat_id", flat=True))


def bag_count(*, bag: Bag, key: bytes, step: TeacherStep | None,
              receipts: int) -> dict[str, int]:
    """Empty the bag: the tally of its sealed ballots (one per receipt; in a weighted ballot,
    each option's sum of weights), then nothing sealed remains and the key is destroyed once
    the transaction commits. ``receipts``: how many the caller read under the table's lock."""
    # Read in the order of the sealed bytes (random), and the tally keyed in the options'
    # order: the storage's order of casting must not reach the published tally.
    with connection.cursor() as cursor:
        cursor.execute(_SEALED_OF_BAG_SQL, [bag.pk])
        sealed = sorted(bytes(row[0]) for row in cursor.fetchall())
    if len(sealed) != receipts:
        raise ServiceError("broken_bag", _("This bag's ballots do not match its receipts."),
                           status=500)
    counted: Counter[str] = Counter()
    for item in sealed:
        index, weight = unseal(key, bag.key_ref, item)
        counted[bag.options[index]] += weight
    tally = {option: counted[option] for option in bag.options if counted[option]}
    bag.status, bag.counted_by, bag.reopened = Bag.Status.COUNTED, step, ""
    with connection.cursor() as cursor:  # fixed SQL: what the ORM's delete and save write
        cursor.execute(_EMPTY_BAG_SQL, [bag.pk])
        cursor.execute(_COUNTED_SQL, [bag.status, step.pk if step is not None else None,
                                      bag.pk])
    _destroy_after_commit(bag.key_ref)
    return tally


def bag_set_aside(*, bag: Bag, step: TeacherStep | None) -> int:
    """Close ``bag`` unopened, as if nobody had voted: its receipts and sealed ballots are
    deleted without being read, and its key is destroyed after the commit (our privacy rule
    for a bag of fewer than three tokens, ``services.ballots``). How many were set aside."""
    set_aside = bag.receipts.count()
    bag.receipts.all().delete()
    bag.sealed.all().delete()
    bag.status, bag.counted_by, bag.reopened, bag.set_aside = (
        Bag.Status.COUNTED, step, "", set_aside)
    bag.save(update_fields=["status", "counted_by", "reopened", "set_aside"])
    _destroy_after_commit(bag.key_ref)
    return set_aside


def bag_reopen(*, bag: Bag, reason: str) -> None:
    """Discard every ballot of ``bag`` and open it again, empty, under a new key and name."""
    old = bag.key_ref
    bag.receipts.all().delete()
    bag.sealed.all().delete()
    bag.key_ref = secrets.token_hex(16)
    _put_key(bag)
    if bag.status == Bag.Status.COUNTED:  # its next count publishes the outcome only
        bag.counted_before = True
    bag.status, bag.counted_by, bag.reopened, bag.set_aside = (
        Bag.Status.OPEN, None, reason, 0)
    bag.save(update_fields=["key_ref", "store", "fingerprint", "status", "counted_by",
                            "reopened", "set_aside", "counted_before"])
    _destroy_after_commit(old)


def bags_destroyed(bags: list[Bag]) -> None:
    """These bags are being deleted (an undone step, a purged lesson): drop their keys."""
    for bag in bags:
        _destroy_after_commit(bag.key_ref)


def counts_remembered(bags: list[Bag]) -> None:
    """These bags are being deleted with the step that opened them: their tables remember
    the decisions among them that were counted, so that a bag opened again for one of them
    publishes its outcome only (``Bag.counted_before``)."""
    for bag in bags:
        if bag.status == Bag.Status.COUNTED or bag.counted_before:
            table = Table.objects.select_for_update().get(pk=bag.table_id)
            if bag.decision not in table.counted:
                table.counted = [*table.counted, bag.decision]
                table.save(update_fields=["counted"])
