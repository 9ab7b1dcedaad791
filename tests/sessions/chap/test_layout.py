"""The decision map as the CHAP reference draws it: goal → plan → steps → results → their parts →
feedback and decisions, with the log's machinery folded into the step that caused it."""

from sessions.chap.graph import ContextGraph
from sessions.chap.layout import DECISION, GOAL, PART, PLAN, RESULT, STEP, MapLayout
from sessions.chap.schemas import validate_envelope
from tests.sessions import envelopes
from workspace.map_drawing import draw_map, map_update
from workspace.node_details import node_details

SYSTEM = ("system", "workbench")


def task_event(task, action, state, *, step=None, plan="d", result=None):
    payload = {"task_id": task, "action": action, "state": state, "title": f"task {task}", "by": "system:workbench"}
    payload |= {"plan_message_id": plan, **({"plan_step": step} if step else {})}
    payload |= {"result_message_id": result} if result else {}
    return envelopes.envelope("task_event", payload, sender=SYSTEM)


def status(task, agent="analyst"):
    payload = {"activity": f"working on task {task}", "state": "working", "task_id": str(task)}
    return envelopes.envelope("agent_status", payload, sender=("agent", agent))


def operation(agent="analyst", name="dataset.query"):
    request = {"type": "query", "id": "a", "body": {}, "caller": {"type": "agent", "id": agent}}
    return envelopes.envelope(
        "operation_record", {"operation": name, "request": request, "outcome": "result"}, sender=SYSTEM
    )


def analysis():
    """A proposal, a plan of three steps approved, and the analyst's work on step 1 with its machinery."""
    report = envelopes.response(
        message_id="r1", in_reply_to="d", assumptions=("first row names columns", "empty is missing"),
    )  # fmt: skip
    report["payload"]["task_step_id"] = "task-2"
    return [
        envelopes.proposal(message_id="t"),
        task_event(1, "created", "queued", plan="t"),
        status(1, "planner"),
        envelopes.declaration(message_id="d", in_reply_to="t"),
        task_event(1, "finished", "done", plan="t"),
        *(task_event(n + 1, "created", "queued", step=n) for n in (1, 2, 3)),
        status(2),
        *(operation() for _ in range(6)),
        report,
        task_event(2, "finished", "done", step=1, result="r1"),
    ]


class Map:
    def __init__(self, messages):
        self.graph, self.layout = ContextGraph("s"), MapLayout()
        for message in messages:
            self.add(message)

    def add(self, message):
        self.graph.apply(self.graph.seq + 1, validate_envelope(message))
        return map_update(self.graph, self.layout, message["message_id"])

    def drawn(self, expanded=True):
        return draw_map(self.graph, self.layout, expanded=expanded)

    def spot(self, key):
        return self.layout.placed[key]

    def node(self, key):
        return next(n for n in self.drawn()["nodes"] if n["index"] == self.spot(key).index)


def test_one_analysis_is_a_dozen_nodes_in_the_references_columns():
    the_map = Map(analysis())
    drawn = the_map.drawn()
    assert drawn["graph_nodes"] == 30 and len(drawn["nodes"]) == 10
    columns = {key: the_map.spot(key).column for key in the_map.layout.order}
    assert columns["t"] == GOAL and columns["d"] == PLAN and columns["r1"] == RESULT
    assert {columns[f"d#step:{n}"] for n in (1, 2, 3)} == {STEP}
    assert {columns[k] for k in ("r1#section:intro", "r1#assumption:0", "r1#question:0")} == {PART}
    assert [n["kind"] for n in drawn["nodes"]].count("Assumption") == 1  # two assumptions, one node
    assert the_map.node("r1#assumption:0")["label"].startswith("2 assumptions")
    # The report hangs off the step its task served, not off the plan it replied to.
    assert the_map.layout.parent["r1"] == ("d#step:1", "fulfils")
    assert the_map.node("t")["label"] == "Write a short report on battery suppliers"
    assert the_map.node("d")["label"] == "Plan by planner: 3 steps"


def test_operations_and_task_events_fold_into_their_step_with_a_count():
    the_map = Map(analysis())
    step = the_map.node("d#step:1")
    assert step["badge"] == 9 and step["folded"] == "2 task events, 1 status update, 6 operations"
    assert the_map.node("t")["badge"] == 3  # the planner's task: created, its status, finished
    details = node_details(the_map.graph, the_map.layout, the_map.spot("d#step:1").index)
    groups = dict(details["folded"])
    assert len(groups["operations"]) == 6 and groups["operations"][0]["label"] == "dataset.query"
    sources = dict(node_details(the_map.graph, the_map.layout, the_map.spot("r1").index)["folded"])
    assert [s["text"] for s in sources["sources"]] == ["[1] Smith 2023"]


def test_a_steps_colour_follows_its_task_until_a_person_decides():
    the_map = Map(analysis())
    assert the_map.node("d#step:1")["status"] == "done"
    assert the_map.node("d#step:2")["status"] == "proposed"
    the_map.add(task_event(4, "approved", "waiting_approval", step=3))
    assert the_map.node("d#step:3")["status"] == "open"


def test_results_carry_their_confidence_heat():
    the_map = Map(analysis())
    assert the_map.node("r1")["heat"] == "2" and the_map.node("r1#section:intro")["heat"] == "3"
    assert the_map.node("r1#section:market")["heat"] == "1" and the_map.node("d#step:1")["heat"] == ""


def test_positions_stay_put_and_a_new_message_patches_only_what_it_touched():
    the_map = Map(analysis())
    before = dict(the_map.layout.placed)
    update = the_map.add(operation())
    assert update["added"] == [] and [n["index"] for n in update["changed"]] == [before["d#step:1"].index]
    assert update["changed"][0]["badge"] == 10
    update = the_map.add(envelopes.feedback("r1", part={"kind": "assumption", "index": 1}, message_id="c1"))
    assert [n["kind"] for n in update["added"]] == ["Decision"]
    assert the_map.spot("c1").column == DECISION and the_map.layout.parent["c1"] == ("r1#assumption:0", "overturns")
    touched = {n["index"]: n["status"] for n in update["changed"]}
    assert touched[before["r1#assumption:0"].index] == "overturned"  # the group shows its overturned member
    assert touched[before["r1"].index] == "needs_review" and len(touched) < len(before)
    assert all(the_map.layout.placed[key] == spot for key, spot in before.items())
    spots = list(the_map.layout.placed.values())
    assert not any(  # no two boxes overlap
        a.column == b.column and a.row < b.row + b.rows and b.row < a.row + a.rows
        for a in spots
        for b in spots
        if a != b
    )


def test_a_revision_after_a_correction_is_another_result_of_the_same_step():
    the_map = Map(analysis())
    the_map.add(envelopes.feedback("r1", part={"kind": "section", "id": "market"}, message_id="c1"))
    the_map.add(task_event(5, "created", "queued", plan="c1"))
    revised = envelopes.response(message_id="r2", in_reply_to="c1")
    revised["payload"]["task_step_id"] = "task-5"
    the_map.add(revised)
    assert (
        the_map.layout.parent["r2"] == ("d#step:1", "fulfils") and ("c1", "responds_to") in the_map.layout.cross["r2"]
    )
    assert the_map.spot("r2").column == RESULT and the_map.spot("r2").row > the_map.spot("r1").row
    assert the_map.node("c1")["badge"] == 1


def test_the_map_fits_its_nodes_and_names_its_columns():
    drawn = Map(analysis()).drawn()
    left, top, width, height = map(float, drawn["view"].split())
    assert all(left <= n["x"] and n["x"] + n["width"] <= left + width for n in drawn["nodes"])
    assert all(top <= n["y"] and n["y"] + n["height"] <= top + height for n in drawn["nodes"])
    assert [c["label"] for c in drawn["columns"]] == [
        "Goal", "Plan", "Steps", "Results", "Sections and questions",
    ]  # fmt: skip
    assert all(len(line["text"]) <= 25 for n in drawn["nodes"] for line in n["lines"])


def test_every_label_gets_two_lines_and_the_goal_four():
    the_map = Map(analysis())
    long = "A correction on the market section: use the 2022 figures from the regional survey instead"
    correction = envelopes.feedback("r1", part={"kind": "section", "id": "market"}, message_id="c1")
    correction["payload"]["specific_instructions"] = {"request": long}
    the_map.add(correction)
    for node in the_map.drawn()["nodes"]:
        assert len(node["lines"]) >= 2 or len(node["label"]) <= 24
    section = the_map.node("r1#section:market")
    assert section["height"] - 4 >= 2 * 14  # room for two lines, though "Market" needs one
    assert len(the_map.node("c1")["lines"]) == 2 and the_map.node("c1")["lines"][1]["text"].endswith("…")


def test_a_failed_task_shows_its_step_failed_even_after_a_redo_of_a_correction_fails():
    the_map = Map(analysis())
    the_map.add(task_event(3, "failed", "failed", step=2))
    assert the_map.node("d#step:2")["status"] == "failed"
    assert the_map.drawn()["legend"][-1] == ("failed", "failed")
    # A redo after a correction serves the step of what was corrected: its failure shows there too,
    # though the correction put the step's result in review.
    the_map.add(envelopes.feedback("r1", part={"kind": "section", "id": "market"}, message_id="c1"))
    update = the_map.add(task_event(5, "failed", "failed", plan="c1"))
    assert the_map.node("d#step:1")["status"] == "failed"
    assert the_map.spot("d#step:1").index in {n["index"] for n in update["changed"]}


def test_the_current_answer_is_marked_and_superseded_results_dimmed():
    the_map = Map(analysis())
    assert the_map.node("r1")["current"] and not the_map.node("r1")["superseded"]
    revised = envelopes.response(message_id="r2", in_reply_to="r1")
    the_map.graph.apply(the_map.graph.seq + 1, validate_envelope(revised))  # the same analyst's new report
    update = map_update(the_map.graph, the_map.layout, "r2")
    dimmed = {n["index"]: n for n in update["changed"]}[the_map.spot("r1").index]
    assert dimmed["superseded"] and not dimmed["current"]  # the live patch redraws the old report
    assert the_map.node("r2")["current"]
    details = node_details(the_map.graph, the_map.layout, the_map.spot("r1").index)
    assert details["superseded"] and details["superseded_by"].endswith("· analyst")


def test_a_milestone_the_workbench_marked_folds_into_the_goal_and_collapses_nothing():
    the_map = Map(analysis())
    marked = envelopes.envelope("checkpoint", {"label": "Report delivered by analyst: Intro"}, sender=SYSTEM)
    the_map.add(marked)
    drawn = the_map.drawn(expanded=False)
    assert drawn["hidden"] == 0 and marked["message_id"] not in the_map.layout.placed
    assert dict(node_details(the_map.graph, the_map.layout, 0)["folded"])["checkpoints"][0]["label"] == (
        "Report delivered by analyst: Intro"
    )
