"""Discussion questions on austerity for the class handout, and three prompts for each
student's page.

``general_questions`` are always asked. ``table_questions`` adds a few tied to what happened
at a table (how it ended, the institution that bore most Cuts, the taxes and loans it took),
each a situation and a question. ``reflection_prompts`` picks three for one student from
their table's game and their portfolio, never from a ballot (nobody knows how anyone voted).
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from facilitator.lessons.austerity.debrief import words
from facilitator.lessons.austerity.debrief.story import StudentStory, TableStory
from facilitator.lessons.austerity.scoring import LOST, WON
from games.austerity import data


@dataclass(frozen=True)
class Question:
    situation: str
    question: str


def general_questions() -> list[str]:
    return [
        _("Raising taxes brought in money but also crime. Who pays for austerity in a real "
          "country, and who is protected from it?"),
        _("Borrowing helps this year and costs later. When is it wise for a government to "
          "borrow?"),
        _("Every cut fell on an institution. Which cuts hurt people most, and which could a "
          "country live with?"),
        _("Is paying off debt the most important goal for a real government? What else "
          "matters, and who should decide?"),
        _("The minister changed every year. What did a new minister have to live with from "
          "the year before?"),
        _("You voted in secret on the budget. Would you have voted differently in public? "
          "Why?"),
    ]


def times(n: int) -> str:
    return ngettext("%(n)d time", "%(n)d times", n) % {"n": n}


def table_questions(story: TableStory) -> list[Question]:
    out: list[Question] = []
    result = story.result
    if result.kind == LOST:
        out.append(Question(
            _("Your country lost in year %(year)d: %(reason)s.") % {
                "year": result.year, "reason": words.reason(result.kind, result.reason)},
            _("Looking back, which choice would you change first, and what would it have "
              "cost instead?")))
    elif result.kind == WON:
        out.append(Question(
            _("Your country won in year %(year)d with its tracks adding up to %(n)d.") % {
                "year": result.year, "n": result.tracks},
            _("Which part of the country paid most for the win?")))
    else:
        out.append(Question(
            _("The lesson ended before your country's game did; it still owed %(n)d Debt "
              "cubes.") % {"n": result.debt},
            _("What would you have done next year, and why?")))
    worst = max(story.cuts, key=lambda c: (c.steps, c.penalties), default=None)
    if worst is not None and worst.steps:
        out.append(Question(
            ngettext("%(institution)s bore %(n)d Cuts step.",
                     "%(institution)s bore %(n)d Cuts steps.", worst.steps)
            % {"institution": worst.name, "n": worst.steps},
            _("Who depends on %(institution)s in a real country? Did your table choose to let "
              "it suffer, or did the draws decide?") % {"institution": worst.name}))
    taxes, borrowed = story.counts.get(data.RAISE_TAXES, 0), story.counts.get(data.BORROW, 0)
    if taxes or borrowed:
        out.append(Question(
            _("Your country raised taxes %(taxes)s and borrowed %(borrow)s.") % {
                "taxes": times(taxes), "borrow": times(borrowed)},
            _("Was that the right mix? What would a country that did the opposite look "
              "like?")))
    return out


def reflection_prompts(student: StudentStory) -> list[str]:
    prompts = []
    if student.standing is not None:
        prompts.append(_("You defended %(what)s: it ended %(verdict)s. What could your "
                         "portfolio have asked for in the budget sessions?") % {
            "what": student.defends, "verdict": student.verdict})
    if student.info.minister_years:
        prompts.append(_("You were the Finance Minister. Which decision was the hardest, and "
                         "what did you know when you took it?"))
    else:
        prompts.append(_("Which of the minister's decisions would you have taken "
                         "differently?"))
    prompts.append(_("Name one cut or tax from your country's game and say who, in a real "
                     "country, would have felt it."))
    prompts.append(_("What is one thing you now think about government debt that you did "
                     "not think before?"))
    return prompts[:3]
