"""What people say about how a file was read and what its columns are becomes the analyst's settings."""

import pytest

from agents.behaviours.instructions import Column, empty_settings, understand

COLUMNS = [
    Column("chicks", "Chick", "number"),
    Column("chicks", "weight", "number"),
    Column("chicks", "Diet", "number"),
    Column("quotes", "Price", "string"),
]


def read_as_sniffed():
    settings = empty_settings()
    settings["reading"] = {
        "chicks": {"separator": ",", "decimal": ".", "thousands": "", "types": {}},
        "quotes": {"separator": ",", "decimal": ".", "thousands": "", "types": {}},
    }
    return settings


@pytest.mark.parametrize(
    ("said", "expected"),
    [
        ("the separator is ;", {"separator": ";", "types": {}}),
        ("The separator is a semicolon", {"separator": ";", "types": {}}),
        ("it is tab-separated", {"separator": "\t", "types": {}}),
        ("semicolon separated, with decimal commas", {"separator": ";", "decimal": ",", "types": {}}),
        ("the decimal mark is a comma", {"separator": ",", "decimal": ",", "thousands": "", "types": {}}),
        ("the thousands separator is a dot", {"separator": ",", "decimal": ".", "thousands": ".", "types": {}}),
    ],
)
def test_how_the_file_is_read(said, expected):
    understood = understand(said, COLUMNS, read_as_sniffed())
    assert understood.done and not understood.not_understood
    assert understood.settings["reading"]["quotes"] == expected  # a new separator sniffs the numbers again


def test_a_type_a_person_names_reads_the_file_again_for_that_column():
    understood = understand("Price is a number", COLUMNS, read_as_sniffed())
    assert understood.settings["reading"]["quotes"]["types"] == {"Price": "number"}
    assert understood.done == ["read Price in quotes as number again from the file"]


@pytest.mark.parametrize(
    ("said", "role"),
    [
        ("Chick is an identifier", "identifier"),
        ("Chick is an ID", "identifier"),
        ("Chick is a category", "category"),
        ("Chick is a measure", "measure"),
        ("Chick is the outcome", "measure"),
        ("Chick is a weight", "weight"),
    ],
)
def test_a_role_a_person_names(said, role):
    understood = understand(said, COLUMNS, read_as_sniffed())
    assert understood.settings["roles"] == {"chicks": {"Chick": role}} and understood.done


def test_a_separator_already_used_is_kept_as_before():
    understood = understand("the separator is a comma", COLUMNS, read_as_sniffed())
    assert understood.done == [
        "kept the separator ',' for the file of chicks, as before",
        "kept the separator ',' for the file of quotes, as before",
    ]
