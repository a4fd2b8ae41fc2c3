"""Discussion questions and reflection prompts, chosen from what happened at each table.

A **rule** looks at one table's story and returns at most one ``Question``: a *situation*
(what happened, with the round, the role and the numbers) and a *question* about it. Rules are
tried in the order of ``RULES`` (most telling first); a table gets every question whose
situation occurred. Add a rule by writing a function ``(TableStory) -> Question | None`` and
decorating it with ``@rule("an-id")`` (see docs/reports.md).

``general_questions`` are always asked; ``comparison_questions`` only when a class played
at several tables and they ended differently; ``reflection_prompts`` picks three prompts
for one student from what happened to them (never from how they voted: nobody knows that).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from facilitator.lessons.state_in_class.debrief.story import StudentStory, TableStory
from facilitator.lessons.state_in_class.words import (
    RULE_TENSION,
    coins,
    event_name,
    role_name,
    service_name,
    tax_label,
    tension_line,
    who,
)
from games.state_in_class import data


@dataclass(frozen=True)
class Question:
    rule: str
    situation: str
    question: str
    table: int | None = None


Rule = Callable[[TableStory], "Question | None"]
RULES: list[tuple[str, Rule]] = []


def rule(rule_id: str) -> Callable[[Rule], Rule]:
    def register(fn: Rule) -> Rule:
        RULES.append((rule_id, fn))
        return fn
    return register


def _q(rule_id: str, story: TableStory, situation: str, question: str) -> Question:
    return Question(rule_id, situation, question, story.number)


def tables_label(numbers: Sequence[int]) -> str:
    """"table 2" or "tables 1, 3 and 4"."""
    items = [str(n) for n in numbers]
    joined = items[0] if len(items) == 1 else \
        _("%(items)s and %(last)s") % {"items": ", ".join(items[:-1]), "last": items[-1]}
    return ngettext("table %(list)s", "tables %(list)s", len(items)) % {"list": joined}


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def _winner_of(story: TableStory, rnd: int) -> str | None:
    entry = next((e for e in story.history if e["round"] == rnd), None)
    return ((entry or {}).get("tax") or {}).get("winner")


def _levels_at_end(story: TableStory) -> dict[str, int]:
    return {s: v.level for s, v in story.state.services.items()}


# --------------------------------------------------------------------------- rules


@rule("state-failure")
def state_failure(story: TableStory) -> Question | None:
    if not story.failed:
        return None
    causes = [c for e in story.history for c in e.get("tension") or [] if c["delta"] > 0]
    biggest = max(causes, key=lambda c: RULE_TENSION.get(c.get("reason"), c["delta"]),
                  default=None)
    situation = _("The State failed in round %(round)d: Tension reached 10 and the game ended "
                  "for everyone.") % {"round": story.failed_round}
    if biggest:  # the rule's amount, with the cap said, as on every other page
        situation += " " + _("The biggest single rise: %(line)s.") % {
            "line": tension_line(biggest)}
    return _q("state-failure", story, situation, _(
        "Look at the Tension causes round by round. Which one could the table have prevented, "
        "and how? What happens to everyone's savings and plans when a State fails?"))


@rule("exclusion-flat-tax")
def exclusion_flat_tax(story: TableStory) -> Question | None:
    for rnd, x in story.exclusions():
        tax = _winner_of(story, rnd)
        if x.get("reason") == "could_not_pay" and tax in ("A", "B"):
            return _q("exclusion-flat-tax", story, _(
                "Round %(round)d, tax %(tax)s: %(who)s could not pay and got an Exclusion "
                "(+3 Tension).") % {"round": rnd, "tax": tax_label(tax),
                                    "who": who(x["player"], x.get("role"))},
                _("Under this tax the poorest pay almost as much as the richest. Why does the "
                  "same tax weigh more on someone who earns 3 coins than on someone who earns "
                  "14? Which option could have kept them in the game, and who would have paid "
                  "for it?"))
    return None


@rule("exclusion-heavy-tax")
def exclusion_heavy_tax(story: TableStory) -> Question | None:
    for rnd, x in story.exclusions():
        tax = _winner_of(story, rnd)
        if x.get("reason") == "could_not_pay" and tax in ("C", "D"):
            return _q("exclusion-heavy-tax", story, _(
                "Round %(round)d, tax %(tax)s: %(who)s could not pay tax and cost of living "
                "and got an Exclusion.") % {"round": rnd, "tax": tax_label(tax),
                                            "who": who(x["player"], x.get("role"))},
                _("Was the tax too high for them, or were other costs (the event, the cost of "
                  "living, a weak service) the real problem? Can a tax be fair overall and "
                  "still too heavy for one person?"))
    return None


@rule("service-never-funded")
def service_never_funded(story: TableStory) -> Question | None:
    ends = [e["levels"] for e in story.history if e.get("levels")]
    if len(ends) < 3:
        return None
    for service in data.SERVICES:
        if all(levels[service] == data.MIN_LEVEL for levels in ends):
            rounds = sum(1 for c in (c for e in story.history for c in e.get("tension") or [])
                         if c.get("reason") == "service_at_level_1"
                         and c.get("service") == service)
            situation = _("%(service)s never rose above level 1. It added %(n)d to Tension "
                          "over the game.") % {"service": service_name(service), "n": rounds}
            effect = {
                data.HEALTH: _("At level 4 Health lowers everyone's cost of living."),
                data.EDUCATION: _("At level 3 Education gives the middle and working classes "
                                  "more income."),
                data.SHIELD: _("At level 3 the Social Shield frees the working class from the "
                               "cost of living."),
            }[service]
            return _q("service-never-funded", story, situation + " " + effect, _(
                "Why did the table never put this service first? Who lost most because it was "
                "missing, and did they have a voice in the budget vote?"))
    return None


@rule("last-round-switch")
def last_round_switch(story: TableStory) -> Question | None:
    """The last tax vote chose another tax than the one the table chose most before it."""
    winners = story.tax_winners()
    if len(winners) < 3 or winners[-1][0] != data.ROUNDS:
        return None
    last = winners[-1][1]
    earlier: dict[str, int] = {}
    for _rnd, option in winners[:-1]:
        earlier[option] = earlier.get(option, 0) + 1
    usual = max(earlier, key=lambda o: (earlier[o], -data.TAX_OPTIONS.index(o)))
    if last == usual:
        return None
    return _q("last-round-switch", story, _(
        "In the last round (round %(round)d) the table switched to tax %(last)s, after "
        "choosing %(usual)s most of the game.") % {
            "round": data.ROUNDS, "last": tax_label(last), "usual": tax_label(usual)},
        _("Why change the tax in the last round, when no later round would pay for it? Who "
          "kept more coins, and what did it do to the services and the final count?"))


@rule("tax-tie-break")
def tax_tie_break(story: TableStory) -> Question | None:
    for e in story.history:
        tax = e.get("tax") or {}
        if tax.get("decided_by") in ("tie_break", "drawn"):
            tally = tax.get("tally")
            if tally is None:  # only the outcome was kept (fewer than 3 ballots)
                tied = " / ".join((tax.get("ranking") or [[]])[0])
            else:
                top = max(tally.values(), default=0)
                tied = " / ".join(o for o in data.TAX_OPTIONS if tally.get(o) == top)
            return _q("tax-tie-break", story, _(
                "Round %(round)d: the tax vote was a tie (%(tied)s). The rules give the "
                "deciding say to the player with the lowest Income; %(winner)s won.") % {
                    "round": e["round"], "tied": tied, "winner": tax_label(tax["winner"])},
                _("Why might the rules let the poorest player break a tie? Is that fair to "
                  "the others? What other tie-break would you choose, and who would it "
                  "favour?"))
    return None


@rule("inheritance")
def inheritance(story: TableStory) -> Question | None:
    for e in story.history:
        for d in e.get("midlife") or []:
            if d["card"] != "the-inheritance":
                continue
            person = who(d["player"], d.get("role"))
            if d["level"] <= 2:
                return _q("inheritance", story, _(
                    "Round 4: %(who)s drew The inheritance with the Social Shield at level "
                    "%(level)d and kept all 8 coins.") % {"who": person, "level": d["level"]},
                    _("The inheritance is the only card that rewards a weak State. Why does a "
                      "strong Social Shield send part of it to the budget? Should inheritances "
                      "be taxed, and how much?"))
            return _q("inheritance", story, _(
                "Round 4: %(who)s drew The inheritance with the Social Shield at level "
                "%(level)d: they got 2 coins and 4 went to next round's budget.") % {
                    "who": person, "level": d["level"]},
                _("Part of the inheritance went to everyone's services. Is that fair to the "
                  "heir? What would happen to the inheritance in a country with no Social "
                  "Shield?"))
    return None


def _upper_standing(story: TableStory) -> tuple[str, str] | None:
    """The upper class's coins, one by one ("Ana 24 and Luis 21 coins"), and where they
    stand in points against the others: "first", "last" or "middle"."""
    players = story.final["players"]
    upper = [(n, row) for n, row in players.items() if row["class"] == data.UPPER]
    others = [row["score"] for row in players.values() if row["class"] != data.UPPER]
    if not upper or not others:
        return None
    scores = [row["score"] for _n, row in upper]
    standing = ("last" if max(scores) < min(others) else
                "first" if min(scores) > max(others) else "middle")
    items = [_("%(name)s %(n)d") % {"name": n, "n": row["coins"]} for n, row in upper]
    listed = items[0] if len(items) == 1 else _("%(items)s and %(last)s") % {
        "items": ", ".join(items[:-1]), "last": items[-1]}
    return ngettext("%(list)s coin", "%(list)s coins", upper[-1][1]["coins"]) % {
        "list": listed}, standing


@rule("upper-coins-vs-legacy")
def upper_coins_vs_legacy(story: TableStory) -> Question | None:
    """What the upper class kept, said as it happened: their own coins and where they finished
    in points, and a question that fits it (last in points is not asked "would you have
    scored more by paying less?" as if they had done well)."""
    if not story.over or story.failed:
        return None
    found = _upper_standing(story)
    if found is None:
        return None
    kept, standing = found
    others = [row["score"] for row in story.final["players"].values()
              if row["class"] != data.UPPER]
    place = {
        "last": _("They finished last in points (the others: %(low)d to %(high)d).") % {
            "low": min(others), "high": max(others)},
        "first": _("They finished first in points (the others: %(low)d to %(high)d).") % {
            "low": min(others), "high": max(others)},
        "middle": _("In points they finished among the others (%(low)d to %(high)d).") % {
            "low": min(others), "high": max(others)},
    }[standing]
    if story.legacy:
        situation = _("The table reached the Legacy (%(n)d levels): +5 points for everyone. "
                      "The upper class ended with %(kept)s.") % {
                          "n": story.levels_sum, "kept": kept}
        question = (_("The upper class paid the most tax and finished last. Was the Legacy "
                      "worth it for them? Would you ask them to pay the same again?")
                    if standing == "last" else
                    _("Who paid most for the Legacy, and who gained most from it? Would the "
                      "upper class have scored more by paying less tax?"))
        return _q("upper-coins-vs-legacy", story, situation + " " + place, question)
    missing = data.LEGACY_LEVELS - story.levels_sum
    situation = ngettext(
        "The upper class ended with %(kept)s. The country was %(missing)d level short of the "
        "Legacy: about %(cost)s of budget.",
        "The upper class ended with %(kept)s. The country was %(missing)d levels short of the "
        "Legacy: about %(cost)s of budget.", missing) % {
            "kept": kept, "missing": missing, "cost": coins(missing * story.state.price)}
    question = (_("Even keeping their coins, the upper class finished last. What did a weak "
                  "State cost them? Would the Legacy's +5 have changed the ranking?")
                if standing == "last" else
                _("If those coins had been paid in tax, everyone would have got +5 points, the "
                  "upper class too. Why didn't it happen? When is saving for yourself better "
                  "than paying for everyone?"))
    return _q("upper-coins-vs-legacy", story, situation + " " + place, question)


@rule("class-change")
def class_change(story: TableStory) -> Question | None:
    changes = [(c, d) for e in story.history for c in e.get("class_changes") or []
               for d in e.get("midlife") or [] if d["player"] == c["player"]]
    for c, d in sorted(changes, key=lambda cd: cd[0].get("move", 0)):  # moves down first
        card = _(data.MIDLIFE_CARDS[d["card"]].name)
        person = who(c["player"], c.get("from_role"))
        if c.get("move", 0) < 0:
            return _q("class-change", story, _(
                "Round 4: %(who)s drew “%(card)s” (%(service)s at level %(level)d) and moved "
                "down a class.") % {"who": person, "card": card,
                                     "service": service_name(d["measures"]),
                                     "level": d["level"]},
                _("Was this about their effort, their luck or the services around them? Which "
                  "service, at which level, would have changed their story?"))
        return _q("class-change", story, _(
            "Round 4: %(who)s drew “%(card)s” (%(service)s at level %(level)d) and moved up a "
            "class.") % {"who": person, "card": card, "service": service_name(d["measures"]),
                         "level": d["level"]},
            _("Who made that step up possible? Would it have happened with a weaker "
              "Education?"))
    return None


@rule("low-pact")
def low_pact(story: TableStory) -> Question | None:
    if story.start_tension is None or story.start_tension < 3:
        return None
    return _q("low-pact", story, _(
        "Before knowing their roles, the players gave %(total)s to the opening pact, so "
        "Tension started at %(t)d.") % {"total": coins(story.final.get("pact_total") or 0),
                                        "t": story.start_tension},
        _("Why do people give little when nobody knows yet who will be rich or poor? Now that "
          "you know your role, would you give more or less?"))


@rule("generous-pact")
def generous_pact(story: TableStory) -> Question | None:
    if story.start_tension != 1:
        return None
    return _q("generous-pact", story, _(
        "The opening pact collected %(total)s: Tension started at 1, the lowest "
        "space.") % {"total": coins(story.final.get("pact_total") or 0)},
        _("Without knowing their roles, the players were generous. Would they have been as "
          "generous after seeing their role cards? Why?"))


@rule("hard-storm")
def hard_storm(story: TableStory) -> Question | None:
    for e in story.history:
        effect = e.get("event_effect") or {}
        if effect.get("effect") == "storm" and effect.get("loss", 0) >= 3:
            return _q("hard-storm", story, _(
                "Round %(round)d, %(event)s: Health and Social Shield were both at level 2 or "
                "lower, so everyone lost up to 3 coins instead of 1.") % {
                    "round": e["round"], "event": event_name(e["event"])},
                _("Why do strong public services soften a disaster? Who lost most: the rich "
                  "or the poor?"))
    return None


@rule("tech-missed")
def tech_missed(story: TableStory) -> Question | None:
    for e in story.history:
        effect = e.get("event_effect") or {}
        if effect.get("effect") == "missed":
            return _q("tech-missed", story, _(
                "Round %(round)d, %(event)s: Education was at level %(level)d, below 3, so "
                "nobody got the +2 income for the rest of the game.") % {
                    "round": e["round"], "event": event_name(e["event"]),
                    "level": effect.get("level", 0)},
                _("What does it cost a country to miss a new technology? Who would have "
                  "gained the extra income?"))
    return None


@rule("flat-tax-majority")
def flat_tax_majority(story: TableStory) -> Question | None:
    winners = [o for _r, o in story.tax_winners()]
    if len(winners) < 4:
        return None
    flat = sum(1 for o in winners if o == "A")
    if flat * 2 <= len(winners):
        return None
    return _q("flat-tax-majority", story, _(
        "The flat tax (A) won %(n)d of the %(of)d tax votes.") % {"n": flat, "of": len(winners)},
        _("Everyone paid 2 coins, whatever they earned. Who gained from that choice, and what "
          "did it mean for the services and for Tension?"))


@rule("strong-services")
def strong_services(story: TableStory) -> Question | None:
    for e in story.history:
        if any(c.get("reason") == "strong_services" for c in e.get("tension") or []):
            return _q("strong-services", story, _(
                "Round %(round)d: all three services were at level 4 or more, and Tension went "
                "down by 1.") % {"round": e["round"]},
                _("Why would strong public services make a society calmer? Can you think of a "
                  "real example?"))
    return None


@rule("high-final-tension")
def high_final_tension(story: TableStory) -> Question | None:
    if story.failed or not story.over or (story.tension or 0) < 8:
        return None
    return _q("high-final-tension", story, _(
        "The game ended with Tension at %(t)d: −5 points for every player.") % {
            "t": story.tension or 0},
        _("Everyone paid for the tension, even those who never got an Exclusion. Why does "
          "inequality cost the people at the top too?"))


@rule("winner-and-excluded")
def winner_and_excluded(story: TableStory) -> Question | None:
    excluded = {x["player"] for _r, x in story.exclusions()}
    winners = [n for n in story.winners if n not in excluded]
    if not winners or not excluded:
        return None
    w = story.final["players"][winners[0]]
    return _q("winner-and-excluded", story, ngettext(
        "%(winner)s won the final count with %(score)d point, while %(others)s got an "
        "Exclusion.",
        "%(winner)s won the final count with %(score)d points, while %(others)s got an "
        "Exclusion.", w["score"]) % {"winner": _capital(who(winners[0], w["role"])),
                                     "score": w["score"],
                         "others": ngettext("%(n)d player at the table",
                                            "%(n)d players at the table",
                                            len(excluded)) % {"n": len(excluded)}},
        _("Can one person really win when others are left out? What does “winning” mean in "
          "this game, and in a country?"))


# --------------------------------------------------------------------------- asking


def table_questions(story: TableStory, *, limit: int | None = None) -> list[Question]:
    """The questions tied to what happened at this table, most telling first (at most
    ``limit``: a class discusses a handful, not twenty)."""
    out = []
    for _rule_id, fn in RULES:
        question = fn(story)
        if question is not None:
            out.append(question)
    return out[:limit] if limit else out


def general_questions() -> list[str]:
    return [
        _("Which tax would you choose now that you know how the game went? Would your answer "
          "change if you did not know your role yet?"),
        _("Who gained most from the public services, and who paid most for them?"),
        _("The votes were secret. Did the promises made in the debate hold? Why does a secret "
          "ballot matter?"),
        _("Is it fairer for everyone to pay the same amount, the same share, or more the more "
          "they earn?"),
        _("What was best for you, and what was best for the country? When were they different?"),
        _("Which part of the game looked most like real life? Which part did not?"),
    ]


def comparison_questions(stories: Sequence[TableStory]) -> list[Question]:
    """Questions that compare tables; only where the tables ended differently."""
    if len(stories) < 2:
        return []
    out: list[Question] = []
    failed = [s for s in stories if s.failed]
    survived = [s for s in stories if s.over and not s.failed]
    if failed and survived:
        out.append(Question("compare-failure", _(
            "The State failed at %(failed)s but survived at %(survived)s.") % {
                "failed": tables_label([s.number for s in failed]),
                "survived": tables_label([s.number for s in survived])},
            _("Compare their Tension charts. When did they start to differ, and what did the "
              "tables decide differently at that moment?")))
    legacy = [s for s in stories if s.legacy]
    no_legacy = [s for s in stories if not s.legacy]
    if legacy and no_legacy:
        out.append(Question("compare-legacy", _capital(ngettext(
            "%(yes)s reached the Legacy; %(no)s did not.",
            "%(yes)s reached the Legacy; %(no)s did not.", len(legacy)) % {
                "yes": tables_label([s.number for s in legacy]),
                "no": tables_label([s.number for s in no_legacy])}),
            _("Look at their tax choices and budget rankings. What made the difference?")))
    taxes = {s.number: s.main_tax() for s in stories if s.main_tax()}
    if len(set(taxes.values())) > 1:
        parts = "; ".join(
            _("table %(n)d mostly %(tax)s, %(levels)d levels at the end") % {
                "n": s.number, "tax": tax_label(taxes[s.number]), "levels": s.levels_sum}
            for s in stories if s.number in taxes)
        out.append(Question("compare-tax", parts[:1].upper() + parts[1:] + ".", _(
            "The tables chose different taxes. What did that change for the services, for "
            "Tension and for the poorest players?")))
    starts = {s.number: s.start_tension for s in stories if s.start_tension is not None}
    if len(set(starts.values())) > 1:
        parts = "; ".join(_("table %(n)d gave %(total)s (Tension %(t)d)") % {
            "n": s.number, "total": coins(s.final.get("pact_total") or 0),
            "t": starts[s.number]}
            for s in stories if s.number in starts)
        out.append(Question("compare-pact", _("The opening pacts differed: %(parts)s.") % {
            "parts": parts}, _(
            "Did a generous start make a difference later on? Why might one table trust more "
            "than another?")))
    excl = {s.number: len(s.exclusions()) for s in stories}
    if len(set(excl.values())) > 1:
        parts = "; ".join(_("table %(n)d: %(x)d") % {"n": n, "x": x} for n, x in excl.items())
        out.append(Question("compare-exclusions", _("Exclusions per table: %(parts)s.") % {
            "parts": parts}, _(
            "Why were some tables able to keep everyone in the game? Who was excluded where?")))
    return out


# --------------------------------------------------------------------------- students


def reflection_prompts(student: StudentStory) -> list[str]:
    """Three prompts for one student, from what happened to them (most personal first)."""
    prompts: list[str] = []
    p, story = student.player, student.table
    final = student.final or {}
    if student.exclusion_rounds:
        prompts.append(_(
            "You got an Exclusion in round %(rounds)s. How did it feel? What would have helped "
            "you most: a different tax, a stronger service, or help from the table?") % {
                "rounds": ", ".join(map(str, student.exclusion_rounds))})
    change = student.class_change["raw"] if student.class_change else None
    if change and change.get("result") == "changed":
        if change.get("move", 0) < 0:
            prompts.append(_(
                "At the Midlife Crossroads you moved down to the %(role)s card. Did it change "
                "what you wanted from taxes and services? Should it have?") % {
                    "role": role_name(change.get("to_role"))})
        else:
            prompts.append(_(
                "At the Midlife Crossroads you moved up to the %(role)s card. Who or what "
                "helped you get there?") % {"role": role_name(change.get("to_role"))})
    draw = student.midlife["raw"] if student.midlife else None
    if draw and draw["card"] == "the-inheritance":
        if draw["level"] <= 2:
            prompts.append(_(
                "You inherited 8 coins because the Social Shield was weak. Did you earn them? "
                "Would you accept a tax on inheritances?"))
        else:
            prompts.append(_(
                "Part of your inheritance went to everyone's budget. Was that fair to you?"))
    elif draw:
        lost = -sum(line["amount"] for line in p.statement
                    if line["reason"] == f"midlife:{draw['card']}" and line["amount"] < 0)
        if lost >= 5 or draw.get("token"):
            prompts.append(_(
                "Your life card, “%(card)s”, cost you %(coins)s. Which service, at which "
                "level, would have protected you?") % {"card": student.midlife["card"],
                                                        "coins": coins(lost)})
    if story.failed:
        prompts.append(_(
            "The State failed in round %(round)d. What could you have done differently, and "
            "what could nobody have done alone?") % {"round": story.failed_round})
    if p.name in story.winners:
        prompts.append(_(
            "You won the final count. Was it your choices, your role or luck? Would you "
            "swap your win for the Legacy?") if not story.legacy else _(
            "You won the final count and the country reached the Legacy. Which of your choices "
            "helped the most?"))
    goal = final.get("goal")
    if goal == "falls-short":
        prompts.append(_(
            "You fell short of your savings goal. What took your coins: tax, cost of living, "
            "events or bad luck?"))
    elif goal in ("live-well", "thrive"):
        prompts.append(_(
            "You reached “%(goal)s”. Did the rest of the country do as well as you? Does it "
            "matter to you?") % {"goal": _(data.GOAL_NAMES[goal])})
    if final:
        prompts.append(_(
            "Over the game you paid %(tax)s of tax, and the services gave you %(points)d "
            "points at the end. Was it a good deal, for you and for the table?") % {
                "tax": coins(student.tax_paid), "points": final["breakdown"]["dividend"]})
    if p.pact is not None:
        prompts.append(_(
            "You gave %(n)d of your 3 coins to the opening pact before you knew your role. "
            "Would you give the same now?") % {"n": p.pact})
    prompts.append(_("If you played again with the same role, what would you vote for first, "
                     "and why?"))
    prompts.append(_("Which moment of the game would you like to play again differently?"))
    seen: list[str] = []
    for text in prompts:
        if text not in seen:
            seen.append(text)
    return seen[:3]
