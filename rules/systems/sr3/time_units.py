"""SR3's units of time: the combat turn (a round), its initiative passes and their phases."""

from __future__ import annotations

from typing import Final

from rules.text import N_, NN_
from rules.time_units import Counted, PassWords, PhaseWords, TimeUnits

TIME_UNITS: Final[TimeUnits] = TimeUnits(
    position=N_("Turn {number} of {count}"),
    budget=N_("Actions this phase"),
    delay_hint=N_("Hold the action to a later phase of this pass"),
    delayed=N_("Delayed: interrupt any later phase, or act at the end of the pass"),
    delayed_tip=N_("Delayed: will act later in this pass, or at its end."),
    passes=PassWords(
        begins=N_("Initiative pass {number} begins."),
        heading=N_("Round {round} · initiative pass {pass_no}"),
        status=N_("initiative pass {number}"),
        title=N_("Round {round} · Initiative pass {pass_no}"),
        counted=Counted(*NN_("{count} initiative pass", "{count} initiative passes")),
        left=Counted(*NN_("{count} initiative pass left", "{count} initiative passes left")),
        duration=N_("Initiative passes"),
        each_start=N_("Start of each initiative pass"),
        each_end=N_("End of each initiative pass"),
        band=N_("Pass {number}"),
        chart_title=N_("Round {number}: initiative passes"),
        delays_into=N_("{name} delays into the next pass."),
        delayed_into=N_("Delayed into pass {number}: act before your own phase there"),
        due=N_("Goes off in round {round}, pass {pass_no}, phase {phase}"),
        due_at_end=N_("Goes off at the end of round {round}, pass {pass_no}"),
    ),
    phases=PhaseWords(acts=N_("{name} acts in phase {phase}."), acting=NN_("{names} acts (phase {phase})",
                                                                            "{names} act (phase {phase})")),
)
