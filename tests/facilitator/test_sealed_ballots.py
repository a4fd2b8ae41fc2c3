"""Sealed ballots: lost keys, undone counts and bots (docs/secrecy.md)."""

from collections import Counter

import pytest

from facilitator import bags, ballot_keys, selectors, services
from facilitator.errors import ServiceError
from facilitator.models import Bag, BallotReceipt, SealedBallot
from facilitator.screens import phone_context, projector_context
from tests.facilitator.lesson import (
    advance,
    all_pacts,
    deterministic,
    fresh,
    humans,
    open_tally,
    seat,
    started,
    state_of,
)

pytestmark = pytest.mark.django_db


def at_tax_vote(count: int = 8, **kwargs):
    session, _tokens = started(count, **kwargs)
    all_pacts(session)
    for _ in range(3):
        session = advance(session)
    assert session.stage == "tax_vote"
    return session


@pytest.fixture
def restarted():
    """Call it to lose every key, as a restarted server (memory) or Redis would."""
    def lose() -> None:
        store = ballot_keys.key_store()
        if isinstance(store, ballot_keys.MemoryKeyStore):
            store.forget_all()
        else:
            for key_ref in Bag.objects.values_list("key_ref", flat=True):
                store.delete(key_ref)
    return lose


def test_a_lost_key_reopens_the_bag_empty_and_asks_again(restarted):
    session = at_tax_vote()
    table = session.tables.get()
    first, second = humans(table)[:2]
    services.ballot_cast(seat_id=first.pk, kind="tax", option="A", expected=session.stage_id)
    restarted()
    with pytest.raises(ServiceError) as caught:
        services.ballot_cast(seat_id=second.pk, kind="tax", option="B",
                             expected=session.stage_id)
    assert caught.value.code == "vote_restarted"
    assert "vote again" in caught.value.message
    bag = Bag.objects.get()
    assert (bag.status, bag.reopened) == ("open", "lost")
    assert not BallotReceipt.objects.exists() and not SealedBallot.objects.exists()
    # Everyone votes again, into a bag with a new key; the first ballot is never counted.
    services.ballot_cast(seat_id=first.pk, kind="tax", option="C", expected=session.stage_id)
    assert open_tally(table) == {"A": 0, "B": 0, "C": 1, "D": 0}


def test_the_teachers_count_after_a_restart_reopens_the_lost_bags_and_says_why(restarted):
    session = at_tax_vote(14)
    for s in humans(session.tables.get(number=1))[:3]:
        services.ballot_cast(seat_id=s.pk, kind="tax", option="A", expected=session.stage_id)
    restarted()
    with pytest.raises(ServiceError) as caught:
        advance(session)
    assert caught.value.code == "votes_lost" and "1, 2" in caught.value.message
    assert fresh(session).stage == "tax_vote"  # nothing was counted
    assert set(Bag.objects.values_list("reopened", flat=True)) == {"lost"}
    projector = projector_context(selectors.projector_view(fresh(session)))
    assert "lost when the server restarted" in projector["tables"][0]["reopened"]
    phone = phone_context(selectors.seat_view(humans(session.tables.get(number=1))[0]))
    assert "Please vote again" in phone["revote"]


def test_the_console_connecting_after_a_restart_reopens_lost_bags_at_once(restarted):
    session = at_tax_vote(4, fill="bots")  # the bots voted when the bag opened
    restarted()
    assert services.bags_recover(session=session) == [1]
    bag = Bag.objects.get()
    assert bag.reopened == "lost"
    # The bots voted again into the new bag; the students are asked again.
    assert BallotReceipt.objects.filter(seat__is_bot=True).count() == 2
    assert services.bags_recover(session=session) == []  # nothing more is lost


def test_a_process_that_holds_no_keys_never_declares_them_lost(monkeypatch):
    """Classroom mode (the in-memory key store): a shell beside the server has no keys."""
    server = ballot_keys.MemoryKeyStore()
    server.serving = True
    monkeypatch.setattr(ballot_keys, "key_store", lambda: server)
    session = at_tax_vote()
    services.ballot_cast(seat_id=seat(session, "Ana").pk, kind="tax", option="A",
                         expected=session.stage_id)
    shell = ballot_keys.MemoryKeyStore()  # e.g. `manage.py shell` beside the server
    monkeypatch.setattr(ballot_keys, "key_store", lambda: shell)
    assert services.bags_recover(session=session) == []
    with pytest.raises(ServiceError) as caught:
        advance(session)
    assert caught.value.code == "keys_elsewhere"
    monkeypatch.undo()
    assert BallotReceipt.objects.count() == 1 and Bag.objects.get().reopened == ""


def test_undo_tells_the_projector_and_the_phones_what_was_discarded():
    session = at_tax_vote()
    table = session.tables.get()
    for s in humans(table)[:3]:
        services.ballot_cast(seat_id=s.pk, kind="tax", option="B", expected=session.stage_id)
    session = advance(session)
    session = services.session_undo(session=session, expected=session.stage_id)
    projector = projector_context(selectors.projector_view(fresh(session)))
    assert projector["undone"] == ("Undone: the count of the tax vote of round 1. The votes "
                                   "cast were discarded: everyone votes again.")
    assert "discarded" in projector["tables"][0]["reopened"]
    phone = phone_context(selectors.seat_view(humans(table)[0]))
    assert "votes cast were discarded" in phone["revote"]
    session = services.session_undo(session=session, expected=session.stage_id)
    projector = projector_context(selectors.projector_view(fresh(session)))
    assert projector["undone"] == "Undone: the opening of the tax vote of round 1."
    session = advance(session)
    assert projector_context(selectors.projector_view(fresh(session)))["undone"] == ""


def test_bots_votes_come_from_randomness_that_is_not_stored():
    """Two lessons alike in every stored value (seeds, seats, policies): a policy that always
    votes B still votes otherwise now and then, so it cannot be subtracted from a tally."""
    from tests.facilitator.lesson import make_teacher

    teacher = make_teacher()
    votes: Counter[str] = Counter()
    for _ in range(12):
        session = at_tax_vote(1, fill="bots", options={"bot_policy": "always-B"},
                              teacher=teacher)
        votes.update(open_tally(session.tables.get()))
    assert votes["B"] > sum(votes.values()) / 2
    assert set(votes) - {"B"} and sum(n for o, n in votes.items() if o != "B") > 0


def test_with_noise_off_bots_vote_their_policy(monkeypatch):
    deterministic(monkeypatch)
    session = at_tax_vote(1, fill="bots", options={"bot_policy": "always-B"})
    assert open_tally(session.tables.get()) == {"A": 0, "B": 5, "C": 0, "D": 0}


def test_an_unsafe_redis_is_refused_before_any_key_is_written():
    class Fake:
        def __init__(self, **config):
            self.config = config
            self.written = False

        def config_get(self, name):
            return {name: self.config.get(name, "")}

    assert ballot_keys.redis_persistence_problems(
        Fake(save="", appendonly="no", **{"maxmemory-policy": "noeviction"})) == []
    problems = ballot_keys.redis_persistence_problems(
        Fake(save="3600 1", appendonly="yes", **{"maxmemory-policy": "allkeys-lru"}))
    assert len(problems) == 3


def test_a_redis_that_saves_to_disk_keeps_votes_closed(monkeypatch):
    store = ballot_keys.RedisKeyStore("redis://127.0.0.1:1/0")
    monkeypatch.setattr(ballot_keys, "redis_persistence_problems", lambda client: ["saves"])
    monkeypatch.setattr(ballot_keys, "key_store", lambda: store)
    session, _tokens = started(8)
    all_pacts(session)
    session = advance(advance(session))
    with pytest.raises(ServiceError) as caught:
        advance(session)
    assert caught.value.code == "unsafe_key_store" and "disk" in caught.value.message
    assert fresh(session).stage == "debate" and not Bag.objects.exists()


def test_a_redis_that_does_not_answer_refuses_the_ballot_clearly(monkeypatch):
    session = at_tax_vote()
    store = ballot_keys.RedisKeyStore("redis://127.0.0.1:1/0")  # nothing listens there
    monkeypatch.setattr(ballot_keys, "key_store", lambda: store)
    with pytest.raises(ServiceError) as caught:
        services.ballot_cast(seat_id=seat(session, "Ana").pk, kind="tax", option="A",
                             expected=session.stage_id)
    assert caught.value.code == "keys_unavailable" and caught.value.status == 503
    assert not BallotReceipt.objects.exists() and Bag.objects.get().reopened == ""


def test_a_sealed_ballot_opens_only_in_its_own_bag():
    from facilitator import sealing

    key = sealing.new_key()
    sealed = sealing.seal(key, "bag-one", 2)
    assert sealing.unseal(key, "bag-one", sealed) == (2, 1)
    for wrong in ((key, "bag-two", sealed), (sealing.new_key(), "bag-one", sealed),
                  (key, "bag-one", sealed[:-1] + bytes([sealed[-1] ^ 1]))):
        with pytest.raises(sealing.BrokenSeal):
            sealing.unseal(*wrong)


def test_the_key_is_never_in_the_database():
    from tests.facilitator.lesson import dump_facilitator

    session = at_tax_vote()
    services.ballot_cast(seat_id=seat(session, "Ana").pk, kind="tax", option="A",
                         expected=session.stage_id)
    bag = Bag.objects.get()
    key = bags.bag_key(bag)
    assert key is not None and len(key) == 32
    dumped = repr(dump_facilitator()).encode() + repr(state_of(bag.table)).encode()
    assert key not in dumped and key.hex().encode() not in dumped


def test_the_deploy_check_flags_a_redis_that_would_save_ballot_keys(monkeypatch, settings):
    from facilitator import checks

    settings.REDIS_URL = "redis://127.0.0.1:1/0"
    monkeypatch.setattr(ballot_keys, "redis_persistence_problems",
                        lambda client: ["Redis saves snapshots to disk"])
    [error] = checks.ballot_keys_stay_in_memory()
    assert error.id == "facilitator.E001" and "snapshots" in error.msg


def test_a_phone_that_did_not_vote_is_told_when_the_result_is_shown():
    session = at_tax_vote()
    table = session.tables.get()
    voters, absent = humans(table)[:7], humans(table)[7]
    for s in voters:
        services.ballot_cast(seat_id=s.pk, kind="tax", option="A", expected=session.stage_id)
    assert not selectors.seat_view(absent)["seat"]["abstained"]  # the vote is still open
    session = advance(session)  # counted anyway: the result is shown
    assert selectors.seat_view(absent)["seat"]["abstained"] is True
    assert selectors.seat_view(voters[0])["seat"]["abstained"] is False
    from django.template.loader import render_to_string

    html = render_to_string("play/_screen.html", phone_context(selectors.seat_view(absent)))
    assert "You did not vote this time" in html


def test_undoing_the_result_of_a_bag_that_counted_itself_says_it_stays_counted():
    session = at_tax_vote()
    for s in humans(session.tables.get()):  # everyone votes: the bag counts itself
        services.ballot_cast(seat_id=s.pk, kind="tax", option="B", expected=session.stage_id)
    session = advance(session)
    session = services.session_undo(session=session, expected=session.stage_id)
    projector = projector_context(selectors.projector_view(fresh(session)))
    assert projector["undone"] == "Undone: showing the result of the tax vote of round 1."
