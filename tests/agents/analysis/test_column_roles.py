"""What each column is for, decided as an analyst decides at a glance (plain Python)."""

import pytest

from agents.analysis.column_roles import role_of, roles_of


def column(name, kind="number", distinct=10, low=1, high=100, **more):
    return {"name": name, "type": kind, "distinct": distinct, "min": low, "max": high, **more}


@pytest.mark.parametrize(
    ("given", "rows", "role"),
    [
        (column("SubjectID"), 100, "identifier"),
        (column("patient"), 100, "identifier"),
        (column("row", distinct=100, high=100), 100, "identifier"),  # 1..100, one per row
        (column("Chick", distinct=50, high=50, numbered_evenly=True), 578, "identifier"),
        (column("replies", distinct=15, high=15), 300, "measure"),  # 1..15, but a count: not evenly numbered
        # a panel's counties, numbered with gaps, seven years each
        (column("county", distinct=90, high=197, repeated_evenly=True), 630, "identifier"),
        (column("population", distinct=90, high=9_000_000, repeated_evenly=True), 630, "measure"),  # far apart
        # a balanced sample's whole-number measurements, each value about as often: the name says they measure
        (column("tail_length_cm", distinct=18, low=40, high=58, repeated_evenly=True), 72, "measure"),
        (column("weight_kg", distinct=20, high=20, numbered_evenly=True), 80, "measure"),
        (column("name", "string", distinct=30), 30, "identifier"),
        (column("region", "string", distinct=4), 30, "category"),
        (column("comment", "string", distinct=80), 200, "text"),
        (column("smoker", distinct=2, low=0, high=1, values=[0, 1]), 30, "yes/no"),
        (column("paid", "boolean", distinct=2), 30, "yes/no"),
        (column("day", "date"), 30, "time"),
        (column("year", distinct=5, low=2001, high=2005), 30, "time"),
        (column("week", distinct=20, high=20), 200, "time"),  # the moment a row was measured
        # a unit in the plural counts a span: weeks in remission, days survived, years in the majors
        (column("weeks", distinct=20, high=35), 42, "measure"),
        (column("days", distinct=180, high=1022), 228, "measure"),
        (column("Years", distinct=22, high=24), 263, "measure"),
        (column("region_code", distinct=4, high=4, values=[1, 2, 3, 4]), 30, "category"),
        (column("PartyID", distinct=7, low=0, high=6, values=list(range(7))), 900, "category"),
        (column("pweight"), 30, "weight"),
        (column("weight"), 30, "measure"),  # a body's weight is measured
        (column("country", "string", distinct=1), 30, "constant"),
        (column("price", distinct=25, low=3, high=90), 30, "measure"),
        (column("Duty____per_case_", distinct=280, low=0.1, high=4.2), 300, "measure"),  # a rate per case measures
    ],
)
def test_roles(given, rows, role):
    assert role_of(given, rows)[0] == role


def test_a_role_a_person_named_wins_and_says_so():
    roles = roles_of([column("replies", distinct=15, high=15), column("price")], 300, {"replies": "identifier"})
    assert roles == {"replies": ("identifier", "you said so"), "price": ("measure", "numbers")}


def test_a_name_in_capitals_ending_in_id_is_an_identifier_a_word_ending_so_is_not():
    from agents.analysis.schema import IDENTIFIER

    said = ("RANDID", "CUSTID", "PATID", "PAID", "UNPAID", "AVOID", "HUMID", "MID", "paid", "Humid")
    assert [name for name in said if IDENTIFIER.search(name)] == ["RANDID", "CUSTID", "PATID"]


def test_a_wait_in_days_repeated_evenly_is_a_measure_not_the_key_of_things_measured_again():
    wait = {"name": "wait_days", "type": "number", "distinct": 63, "min": 24, "max": 2616, "repeated_evenly": True}
    assert role_of(wait, 137)[0] == "measure"
