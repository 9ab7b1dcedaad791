"""The analyst says how it read a question, and a reading that leaves words unaccounted for caps how
sure the answer may be: a misread question must not come out as sure as a read one (plain Python)."""

from dataclasses import replace

from agents.analysis.question import read_question
from agents.analysis.reading import UNSURE, read_back
from agents.analysis.readings import options
from agents.analysis.schema import Schema

CRIME = Schema("county_crime", [
    {"name": "county", "type": "number", "distinct": 90, "role": "identifier"},
    {"name": "year", "type": "number", "distinct": 7},
    {"name": "region", "type": "string", "distinct": 3, "values": ["central", "west", "other"]},
    {"name": "crimes_per_1000", "type": "number", "distinct": 600},
    {"name": "police_per_1000", "type": "number", "distinct": 600},
    {"name": "tax_per_capita", "type": "number", "distinct": 600},
], rows=630)  # fmt: skip


def reading_of(text: str):
    return read_back(text, CRIME, read_question(text, CRIME))


def test_a_question_read_in_full_states_its_reading_and_leaves_no_doubt():
    reading = reading_of("Which region has the highest mean crimes per 1000?")
    assert reading.line == "the mean crimes per 1000 compared across region"
    assert reading.said() == []
    assert reading.certainty == 1.0


def test_a_value_the_reading_did_not_filter_on_is_a_doubt_that_caps_the_answer():
    reading = reading_of("In 1987, what was the mean crime rate of the westerly counties?")
    assert any("“westerly”" in doubt for doubt in reading.said())
    assert reading.certainty <= UNSURE


def test_an_acronym_the_reading_did_not_use_is_a_name_it_may_have_dropped():
    reading = reading_of("Which region has the highest mean crimes per 1000 among OECD members?")
    assert any("“OECD”" in doubt and "filter" in doubt for doubt in reading.said())
    assert reading.certainty <= UNSURE


def test_groups_left_down_to_one_by_an_exclusion_are_a_doubt():
    two = Schema("players", [
        {"name": "league", "type": "string", "distinct": 2, "values": ["American", "National"]},
        {"name": "runs", "type": "number", "distinct": 90},
        {"name": "salary", "type": "number", "distinct": 300},
    ], rows=300)  # fmt: skip
    text = "What sets the American league players apart from the National ones the most?"
    reading = read_back(text, two, read_question(text, two))
    assert any("kept only one of them" in doubt for doubt in reading.said()) and reading.certainty <= UNSURE


def test_a_difference_asked_and_answered_with_one_figure_is_a_doubt():
    shops = Schema("teams", [
        {"name": "Region", "type": "string", "distinct": 2, "values": ["North", "South"]},
        {"name": "Goals", "type": "number", "distinct": 90},
        {"name": "Rent", "type": "number", "distinct": 300},
    ], rows=300)  # fmt: skip
    text = "What sets the North region goal scorers apart from the South ones the most?"
    reading = read_back(text, shops, read_question(text, shops))
    assert any("you asked what differs" in doubt for doubt in reading.said()) and reading.certainty <= UNSURE


def test_a_total_of_a_rate_is_a_doubt_that_offers_its_mean():
    reading = reading_of("Which region has the largest total crimes per 1000?")
    assert any("adds up rates" in doubt and "crimes per 1000" in doubt for doubt in reading.said())
    assert reading.certainty <= UNSURE
    assert reading_of("Which region has the largest mean crimes per 1000?").certainty == 1.0


def test_a_ranking_the_reading_cannot_give_is_a_doubt():
    reading = reading_of("Where is the mean crimes per 1000 highest?")
    assert any("“highest”" in doubt for doubt in reading.said())
    assert reading.certainty <= UNSURE


def test_a_number_no_filter_took_is_a_doubt():
    reading = reading_of("Which region had the highest mean tax per capita, counting only the 25 biggest?")
    assert any("“25”" in doubt for doubt in reading.said())
    assert reading.certainty <= UNSURE


def test_words_that_frame_the_question_or_name_the_table_are_no_doubt():
    reading = reading_of("Could you tell me which region has the highest mean police per 1000 in the data?")
    assert reading.said() == []


def test_words_of_a_column_the_reading_left_out_say_which_column_may_have_been_meant():
    firms = Schema("firms", [
        {"name": "year", "type": "number", "distinct": 3}, {"name": "employees", "type": "number", "distinct": 90},
        {"name": "training_hours_per_employee", "type": "number", "distinct": 90},
    ], rows=270)  # fmt: skip
    text = "How did training hours per employee move over the three years, on average?"
    misread = replace(read_question(text, firms), measures=["employees"])  # as the reading once went
    reading = read_back(text, firms, misread)
    assert "you may have meant training hours per employee, which I did not use" in reading.said()
    assert reading.certainty <= UNSURE


def test_groups_kept_down_to_one_of_them_are_a_doubt():
    reading = reading_of("In 1987, which region had the highest mean crimes per 1000 among the west ones?")
    assert any("kept only one of them" in doubt for doubt in reading.said())


def test_a_goal_that_asks_to_analyse_the_attached_file_has_no_doubt_for_it():
    reading = reading_of("Please analyse the attached CSV: which region has the highest mean police per 1000?")
    assert reading.said() == []


def test_the_most_rows_read_where_the_table_measures_something_is_asked_about_with_the_measure_offered():
    monthly = Schema("monthly_sales", [
        {"name": "year", "type": "number", "distinct": 14},
        {"name": "month", "type": "string", "distinct": 12, "values": ["Jan", "Feb", "Mar"]},
        {"name": "kilolitres", "type": "number", "distinct": 168},
    ], rows=168)  # fmt: skip
    text = "Which month has the most sales?"
    request = read_question(text, monthly)
    reading = read_back(text, monthly, request)
    assert request.kind == "share" and reading.certainty <= UNSURE
    offered = [o["label"] for o in options(request, reading, monthly, lambda words: read_question(words, monthly))]
    assert offered == ["What share of the rows does each month have?", "Which month has the highest mean kilolitres?"]


def test_words_that_ask_for_another_kind_of_question_read_past_cap_the_answer():
    # no column holds the weather: the adjusted reading fails, and the plain correlation must not look sure
    reading = reading_of("Controlling for the weather, how does tax per capita relate to crimes per 1000?")
    assert any("“Controlling”" in doubt and "accounting for other columns" in doubt for doubt in reading.said())
    assert reading.certainty <= UNSURE


def test_a_trials_arm_is_its_treatment_column():
    trial = Schema("trial", [
        {"name": "intervention", "type": "string", "distinct": 2, "values": ["control", "treated"]},
        {"name": "site", "type": "number", "distinct": 8, "values": list(range(1, 9)), "min": 1, "max": 8},
        {"name": "iq", "type": "number", "distinct": 90, "min": 40, "max": 140},
    ], rows=900)  # fmt: skip
    request = read_question("Which site and arm together show the weakest average IQ?", trial)
    assert (request.kind, {request.group, request.second}, request.direction) == (
        "two_factor",
        {"site", "intervention"},
        "low",
    )


def test_the_rows_named_by_their_number_column_are_no_column_left_unused():
    reading = reading_of("How many counties have no tax per capita value?")
    assert reading.line == "the missing values of tax per capita"
    assert reading.said() == []


def test_a_comparison_that_names_no_measure_offers_the_likeliest_measures_one_of_each_family():
    from agents.analysis.readings import measure_options

    weather = Schema("weather", [
        {"name": "station", "type": "string", "distinct": 2, "values": ["Greensboro", "Sand Point"]},
        {"name": "temp_mean_c", "type": "number", "distinct": 300},
        {"name": "temp_max_c", "type": "number", "distinct": 300},
        {"name": "sunshine_kwh", "type": "number", "distinct": 300},
        {"name": "wind_ms", "type": "number", "distinct": 300},
    ], 730)  # fmt: skip
    text = "Which station has the nicer weather?"
    request = read_question(text, weather)
    offered = measure_options(request, text, weather, lambda words: read_question(words, weather))
    unjudged = "Which station has the happiest visitors?"  # a column the table lacks: said so, nothing offered
    assert (
        measure_options(read_question(unjudged, weather), unjudged, weather, lambda w: read_question(w, weather)) == []
    )
    assert [o["label"] for o in offered] == [
        "Which station has the highest mean temp mean c?",
        "Which station has the highest mean sunshine kwh?",
        "Which station has the highest mean wind ms?",
    ]


def test_a_place_said_as_the_questions_first_word_and_not_filtered_is_a_doubt_that_caps_the_answer():
    reading = reading_of("Westerly counties: what was the mean crime rate in 1987?")
    assert any("“Westerly”" in doubt for doubt in reading.said()) and reading.certainty <= UNSURE
    cars = Schema("cars", [
        {"name": "origin", "type": "string", "distinct": 3, "values": ["north", "south", "west"]},
        {"name": "year", "type": "number", "distinct": 13, "role": "time"},
        {"name": "price", "type": "number", "distinct": 900},
    ], 2400)  # fmt: skip
    text = "Japanese models' mean price year by year: which direction?"
    assert read_back(text, cars, read_question(text, cars)).certainty <= UNSURE
    plain = "Which year had the highest mean price?"
    assert read_back(plain, cars, read_question(plain, cars)).certainty > UNSURE


def test_each_further_doubt_and_a_named_column_left_out_make_a_reading_less_certain():
    from agents.analysis.reading import COLUMN_LEFT_OUT, HESITANT, LEFT_OVER, Doubt, Reading

    read_past = Doubt("I read past “sticker”", LEFT_OVER)
    loose = Doubt("I took your words to mean price", HESITANT)
    left_out = Doubt("I did not use size, which you named", UNSURE, COLUMN_LEFT_OUT)
    one, two = Reading("", [read_past]), Reading("", [read_past, loose])
    assert one.certainty == LEFT_OVER and two.certainty < HESITANT
    assert Reading("", [read_past, left_out]).certainty < Reading("", [read_past, Doubt("x", UNSURE)]).certainty
    assert Reading("", [left_out] * 12).certainty == 0.3  # never so low it reads as a refusal
