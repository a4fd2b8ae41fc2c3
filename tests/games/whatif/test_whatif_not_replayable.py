"""A game whose secret part changed its public course has no what-if: the prepared path
replays State in Class's pact from its total alone (docs/what-if.md), and where the class's
own split made a student pay or not pay differently, the record stops replaying there."""

import pytest

from games import whatif
from games.registry import replay
from tests.games.whatif.test_whatif_properties import sic_record


def test_a_record_whose_pact_split_changed_its_course_is_not_replayable():
    record = sic_record(4, players=7)  # the bots' own split: someone pays who otherwise could not
    replay(record)  # the record itself replays exactly
    with pytest.raises(whatif.NotReplayable):
        whatif.read(record)

