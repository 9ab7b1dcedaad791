"""The reviewer's checks of an answer against its question (plain Python), on answers the trial of
issue 36 found wrong and on right ones, in small dicts shaped as the analyst's provenance."""

from agents.analysis.answer_checks import check_answer, check_criteria
from agents.analysis.question_parts import kept_phrases

CHICKS = {"Chick": "identifier", "Diet": "category", "weight": "measure", "Time": "time"}
CARS = {"mpg": "measure", "cylinders": "category", "origin": "category", "weight": "measure", "model": "identifier"}


def report(question, request, roles, table="t"):
    return {"question": question, "findings": {"table": table, **request}, "roles": {table: roles}}


def checked(question, request, roles, *, confidence=0.9, lead="", criteria=(), text=""):
    return check_answer(report(question, request, roles), confidence, list(criteria), text, lead)


def titles(result):
    return [f.title for f in result.findings]


def test_an_identifier_analysed_as_the_measure_is_a_finding_and_the_confident_lead_too_high():
    result = checked(
        "Which diet gives the fastest growth in weight?",
        {"kind": "compare", "measures": ["Chick"], "group": "Diet"},
        CHICKS,
        lead="**4** has the highest mean Chick: 45.53",
    )
    assert "Chick is an identifier, analysed as the measure" in titles(result)
    assert "The question names weight but the answer does not use it" in titles(result)
    assert titles(result)[-1] == "The answer's confidence, 0.9, is too high"
    assert "2 checks above failed" in result.findings[-1].detail
    assert "the mean of Chick by Diet" in result.findings[0].detail  # says what it computed instead


def test_a_right_answer_passes_every_check_and_says_what_was_checked():
    result = checked(
        "Which diet gives the heaviest chicks on average?",
        {"kind": "compare", "measures": ["weight"], "group": "Diet"},
        CHICKS,
        lead="**3** has the highest mean weight: 142.9 (n = 118)",
    )
    assert result.findings == []
    assert result.summary == (
        "Checked: the answer uses Diet and weight as the question names them; no identifier or constant "
        "analysed (Chick left out); the answer groups as the question does (by Diet); the question states no year "
        "or filter that the answer leaves out; the proposal states no success criteria."
    )


def test_a_dropped_filter_is_a_part_not_answered_and_a_kept_one_is_not():
    question = "What is the average mpg among the 4-cylinder ones?"
    dropped = checked(question, {"kind": "statistic", "measures": ["mpg"]}, CARS)
    assert "Part of the question not answered: “among the 4-cylinder ones”" in titles(dropped)
    kept = checked(
        question,
        {"kind": "statistic", "measures": ["mpg"], "filters": [{"column": "cylinders", "op": "=", "value": 4}]},
        CARS,
        lead="The mean mpg is 29.29 over the 204 rows where cylinders is 4",
    )
    assert kept.findings == []
    assert "every part of the question is in the answer (the rows “among the 4-cylinder ones”)" in kept.summary


def test_a_second_grouping_left_out_is_said_once():
    result = checked(
        "Which combination of origin and cylinders has the best mpg?",
        {"kind": "compare", "measures": ["mpg"], "group": "origin"},
        CARS,
        confidence=0.5,
    )
    assert titles(result) == ["Part of the question not answered: by cylinders"]  # not again as a name
    assert (
        result.findings[0].detail == "The question groups by origin and cylinders; the answer compares by origin only."
    )


def test_a_year_read_as_a_value_is_not_the_year_asked_about():
    roles = {"earnings_1974": "measure", "earnings_1978": "measure", "group": "category", "year": "time"}
    wrong = checked(
        "How spread out were 1978 earnings?",
        {
            "kind": "statistic",
            "measures": ["earnings_1974"],
            "filters": [{"column": "earnings_1974", "op": "=", "value": 1978}],
        },
        roles,
        lead="The sample standard deviation of earnings 1974 is n/a over the 0 rows where earnings_1974 is 1978",
    )
    assert "Part of the question not answered: 1978" in titles(wrong)
    assert "The answer gives no figure" in titles(wrong)
    right = checked("How spread out were 1978 earnings?", {"kind": "statistic", "measures": ["earnings_1978"]}, roles)
    assert right.findings == []


def test_a_lead_about_a_column_the_question_does_not_name():
    roles = {"vehicle_time_min": "measure", "terminal_wait_min": "measure", "vehicle_cost": "measure"}
    result = checked(
        "Do longer in-vehicle times come with higher vehicle costs?",
        {"kind": "association", "measures": ["terminal_wait_min", "vehicle_time_min"], "outcome": "vehicle_cost"},
        roles,
        lead="terminal wait min is the variable most associated with vehicle cost: Pearson r = 0.5804",
    )
    assert titles(result)[0] == "The answer speaks of terminal_wait_min, which the question does not name"


def test_a_refusal_is_not_answered_and_never_no_problems():
    result = checked(
        "Which status group has the higher mean age?",
        {"kind": "compare", "group": "status", "missing": ["measure"]},
        {"status": "category", "age_at_surgery": "measure"},
        confidence=0.2,
    )
    assert titles(result) == ["The question is not answered"]  # a low confidence is not too high


def test_columns_named_as_the_rows_or_the_span_need_not_be_used():
    roles = {"State": "identifier", "Region": "category", "Poverty": "measure", "year": "time", "city": "category"}
    for question, request in [
        ("Which census region has the highest poverty, averaging over its states?", {"group": "Region"}),
        ("Is poverty going down over the years across these cities?", {"kind": "trend", "time": "year"}),
        ("Which region has the highest poverty per year?", {"group": "Region"}),
    ]:
        result = checked(question, {"kind": "compare", "measures": ["Poverty"], **request}, roles)
        assert result.findings == [], (question, titles(result))


def test_kept_phrases_read_a_parenthesis_whole_and_skip_question_words():
    assert kept_phrases("Among the ratings (rate_marriage, 1 = poor to 5 = good), which group is happiest?") == [
        ("Among", "the ratings (rate_marriage, 1 = poor to 5 = good)")
    ]
    assert kept_phrases("Where is the price highest? It is the only one.") == []
    assert kept_phrases("What is the mean price of the cars whose weight is above 2000?") == [
        ("whose", "weight is above 2000")
    ]


def test_a_success_criterion_is_met_when_the_report_says_its_words():
    text = "Setosa has the shortest petals; the species differ most in petal length."
    result = check_criteria(["names the species with the shortest petal length", "compares sepal width"], text)
    assert [f.title for f in result.findings] == ["Success criterion not evidently met: compares sepal width"]
    assert check_criteria([], text).passed == ["the proposal states no success criteria"]


def test_groups_the_question_asks_for_are_the_answers():
    roles = {"county": "measure", "region": "category", "crimes": "measure", "year": "time", "sex": "category"}
    measured = checked(
        "Which county had the steepest rise in crimes from 1981 to 1987?",
        {"kind": "growth", "measures": ["county", "crimes"], "entity": "region", "time": "year"},
        roles,
        lead="central grew most: county went from 1 in 1981 to 185 in 1987",
    )
    assert "county is asked as the groups but analysed as a measure" in titles(measured)
    unasked = checked(
        "What's the median crimes at the top 25 counties?",
        {"kind": "compare", "measures": ["crimes"], "group": "region"},
        roles,
    )
    assert "The answer compares region groups, which the question does not ask for" in titles(unasked)
    against = checked(
        "What proportion of those aboard were men versus women?",
        {"kind": "share", "group": "region", "filters": [{"column": "sex", "op": "=", "value": "women"}]},
        roles,
    )
    assert "A comparison read as a filter: only the rows where sex is women" in titles(against)


def test_a_change_asked_and_one_figure_answered():
    roles = {"life_expectancy": "measure", "year": "time", "progression": "measure", "bmi": "measure"}
    one = checked(
        "How has life expectancy moved between 1952 and 2007?",
        {"kind": "statistic", "measures": ["life_expectancy"]},
        roles,
        lead="The mean life expectancy is 59.47 over the 1704 rows where year is at least 1952 and year is at most 2007",
    )
    assert titles(one)[0] == "A change asked, one figure answered"
    course = checked(
        "How has life expectancy moved between 1952 and 2007?",
        {"kind": "trend", "measures": ["life_expectancy"], "time": "year"},
        roles,
        lead="The mean life expectancy rose from 49.06 in 1952 to 67.01 in 2007",
    )
    assert course.findings == []
    named = checked("What is the mean progression?", {"kind": "statistic", "measures": ["progression"]}, roles)
    assert named.findings == []  # a column's name, not a change
    grows = checked(
        "Which fertiliser grows the tallest plants?",
        {"kind": "compare", "measures": ["height_cm"], "group": "fertiliser"},
        {"fertiliser": "category", "height_cm": "measure"},
    )
    assert grows.findings == []  # a cause of growth, not a change over time


def test_a_time_is_left_alone_unless_asked_which():
    roles = {"year": "time", "month": "category", "kilolitres": "measure", "Appointed": "time", "Province": "category"}
    cycle = checked(
        "Slowest month of the year for wine sales? Average kilolitres per calendar month across all years.",
        {"kind": "compare", "measures": ["kilolitres"], "group": "month"},
        roles,
    )
    assert cycle.findings == []
    which = checked(
        "In which of the three years was the mean kilolitres highest?",
        {"kind": "statistic", "measures": ["kilolitres"]},
        roles,
        confidence=0.5,
    )
    assert titles(which) == ["The question names year but the answer does not use it"]


def test_among_words_that_name_no_column_keep_no_rows():
    roles = {"prior_convictions": "measure", "age_at_release": "measure", "rearrested": "yes/no"}
    result = checked(
        "What's the 90th percentile of prior convictions among the released men?",
        {"kind": "statistic", "measures": ["prior_convictions"], "statistic": "percentile", "percentile": 90},
        roles,
    )
    assert result.findings == []
