"""What a phone and the game master's console may send in a Poleconomy lesson beyond the
platform's own messages (``facilitator.messages``)."""

from __future__ import annotations

import json
from typing import Annotated, Any, Literal

from django.utils.translation import gettext as _
from pydantic import ConfigDict, Field, StrictBool, StrictInt, StrictStr, model_validator

from facilitator.errors import ServiceError
from facilitator.kit import Message
from facilitator.lessons.poleconomy import orderform, services

Name = Annotated[StrictStr, Field(max_length=45)]
# Orders travel as an object (a socket) or as its JSON text (a plain form post).
Orders = dict[str, Any] | Annotated[StrictStr, Field(max_length=4000)] | None


def _object(value: Any) -> dict[str, Any] | None:
    if isinstance(value, str):
        try:
            value = json.loads(value) if value.strip() else None
        except ValueError:
            raise ServiceError("bad_orders", _("These orders could not be read.")) from None
    if value is not None and not isinstance(value, dict):
        raise ServiceError("bad_orders", _("These orders could not be read."))
    return value


class SendOrders(Message):
    type: Literal["orders"]
    orders: Orders = None


Field40 = Annotated[StrictStr, Field(max_length=40)]


class OrderForm(Message):
    """The phone's order form as plain fields (``orderform``); ``bid_<firm>`` fields are the
    bids (no other extra field). ``suggest`` "1": a team member's suggestion."""

    model_config = ConfigDict(extra="allow", strict=True)
    type: Literal["order_form"]
    move: Field40 = "roll:"
    act: Field40 = ""
    buy: Field40 = "none"
    max_price: Field40 = ""
    business: Field40 = ""
    life: Field40 = ""
    bonds: Field40 = ""
    takeover: Field40 = ""
    reverse: Field40 = ""
    appoint: Field40 = ""
    dismiss: Field40 = ""
    issue_bonds: Field40 = ""
    buy_back_bank: Field40 = ""
    buy_back_players: Field40 = ""
    suggest: Field40 = ""

    @model_validator(mode="after")
    def _only_bids(self) -> OrderForm:
        extra = self.model_extra or {}
        if len(extra) > 10 or any(not orderform.BID.match(k) or not isinstance(v, str)
                                  or len(v) > 6 for k, v in extra.items()):
            raise ValueError("unknown fields in the order form")
        return self


class ProposeForm(Message):
    type: Literal["propose_form"]
    salary_pm: Field40 = ""
    salary_ministers: Field40 = ""
    tax_per_company: Field40 = ""
    tax_companies_at_least: Field40 = ""
    pay_to: Name = ""
    pay_amount: Field40 = ""
    press_release: Annotated[StrictStr, Field(max_length=280)] = ""


class Suggest(Message):
    type: Literal["suggest"]
    orders: Orders


class Propose(Message):
    type: Literal["propose"]
    items: Orders = None
    press_release: Annotated[StrictStr, Field(max_length=280)] = ""


class Ask(Message):
    """A party or coalition request. ``members``: a list, or one name (a form's select);
    ``with_1`` to ``with_5``: the phone's partner boxes (a form sends each box as a field of
    its own)."""

    type: Literal["ask"]
    kind: Literal["party", "coalition"]
    members: Annotated[list[Name], Field(max_length=6)] | Name = ""
    name: Annotated[StrictStr, Field(max_length=40)] = ""
    pm: Name = ""
    with_1: Name = ""
    with_2: Name = ""
    with_3: Name = ""
    with_4: Name = ""
    with_5: Name = ""

    def partners(self) -> list[str]:
        listed = [self.members] if isinstance(self.members, str) else list(self.members)
        boxes = [self.with_1, self.with_2, self.with_3, self.with_4, self.with_5]
        return [n for n in dict.fromkeys(listed + boxes) if n]


class MasterOrders(Message):
    type: Literal["master_orders"]
    table: StrictInt
    player: Name
    orders: Orders = None
    clear: StrictBool = False


class MasterParties(Message):
    type: Literal["master_parties"]
    table: StrictInt
    parties: dict[Annotated[StrictStr, Field(max_length=40)], list[Name]]


class MasterGovernment(Message):
    type: Literal["master_government"]
    table: StrictInt
    members: list[Name] | None = None
    pm: Name | None = None


class MasterPress(Message):
    type: Literal["master_press"]
    table: StrictInt


class MasterEnd(Message):
    type: Literal["master_end"]
    table: StrictInt


SEAT = (SendOrders, Suggest, Propose, Ask, OrderForm, ProposeForm)
TEACHER = (MasterOrders, MasterParties, MasterGovernment, MasterPress, MasterEnd)


def seat_act(seat_id: int, message: Any, token_hash: str | None) -> None:
    common = {"seat_id": seat_id, "expected": message.expected, "token_hash": token_hash}
    if isinstance(message, OrderForm):
        fields = {**message.model_dump(), **(message.model_extra or {})}
        services.order_form_send(fields=fields, suggest=message.suggest == "1", **common)
    elif isinstance(message, ProposeForm):
        services.proposal_form_send(fields=message.model_dump(), **common)
    elif isinstance(message, SendOrders):
        services.orders_send(orders=_object(message.orders), **common)
    elif isinstance(message, Suggest):
        services.orders_suggest(orders=_object(message.orders) or {}, **common)
    elif isinstance(message, Propose):
        services.proposal_write(items=_object(message.items) or {},
                                press_release=message.press_release, **common)
    elif isinstance(message, Ask):
        services.politics_request(kind=message.kind, members=message.partners(),
                                  name=message.name, pm=message.pm, **common)


def teacher_act(session: Any, message: Any) -> None:
    if isinstance(message, MasterOrders):
        services.master_orders(session=session, table=message.table, player=message.player,
                               orders=_object(message.orders), clear=message.clear,
                               expected=message.expected)
    elif isinstance(message, MasterParties):
        services.master_parties(session=session, table=message.table,
                                declared={k: list(v) for k, v in message.parties.items()},
                                expected=message.expected)
    elif isinstance(message, MasterGovernment):
        services.master_government(session=session, table=message.table,
                                   members=message.members, pm=message.pm,
                                   expected=message.expected)
    elif isinstance(message, MasterEnd):
        services.master_end(session=session, table=message.table, expected=message.expected)
    elif isinstance(message, MasterPress):
        services.master_press(session=session, table=message.table,
                              expected=message.expected)
