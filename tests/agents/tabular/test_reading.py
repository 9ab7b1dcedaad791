"""CSV files as they come from R, Excel and European locales, read without Django: every row of the
file loaded (or said why not), every column typed as an analyst would type it."""

import pytest

from agents.tabular.reading import ReadError, ReadOptions, read_table


def read(text, encoding="utf-8", **options):
    return read_table(text.encode(encoding) if isinstance(text, str) else text, ReadOptions(**options))


def column(table, name):
    return next(c for c in table.columns if c.name == name)


def types(table):
    return {c.name: c.type for c in table.columns}


def test_a_semicolon_file_with_decimal_commas_loads_every_row_as_numbers():
    lines = ["Region;Price;Weight"] + [f"R{i % 4};{i},{i % 10}5;1.{i:03d},5" for i in range(1, 401)]
    table = read("\n".join(lines) + "\n")
    assert (table.dialect.separator, table.dialect.decimal, table.dialect.thousands) == (";", ",", ".")
    assert table.rows_in_file == table.rows_loaded == 400 and not table.rejected
    assert types(table) == {"Region": "string", "Price": "number", "Weight": "number"}
    assert column(table, "Price").values[:2] == [1.15, 2.25]
    assert column(table, "Weight").values[0] == 1001.5
    notes = " ".join(table.notes())
    assert "separator is semicolon" in notes and "decimal mark is a comma" in notes


def test_thousands_separators_make_numbers_not_text():
    table = read('City,Price,Year\nParis,"1,234,500",2001\nLyon,"987,000",2002\nNice,"12,500.50",2003\n')
    assert types(table) == {"City": "string", "Price": "number", "Year": "number"}
    assert column(table, "Price").values == [1234500, 987000, 12500.5]
    assert table.dialect.thousands == "," and any("separates thousands" in n for n in table.notes())


def test_values_written_with_a_percent_or_currency_sign_are_numbers_and_the_sign_is_said():
    lines = ["tract,lower_status,rent"] + [f'{i},{4.5 + i}%,"${1000 + 250 * i:,}"' for i in range(12)] + ["12,NA,NA"]
    table = read("\n".join(lines) + "\n")
    assert types(table) == {"tract": "number", "lower_status": "number", "rent": "number"}
    assert column(table, "lower_status").values[:2] == [4.5, 5.5] and column(table, "lower_status").values[-1] is None
    assert column(table, "rent").values[4] == 2000
    notes = " ".join(table.notes())
    assert "lower_status's values carry a % sign" in notes and "rent's values carry a $ sign" in notes


def test_values_written_with_their_unit_are_numbers_and_the_unit_is_said():
    table = read("sample,altitude,grade\n" + "".join(f"{i},{1200 + 15 * i} m,Grade A\n" for i in range(12)))
    assert types(table) == {"sample": "number", "altitude": "number", "grade": "string"}
    assert column(table, "altitude").values[:2] == [1200, 1215]
    assert "altitude's values carry a unit (m)" in " ".join(table.notes())


def test_a_decade_or_a_label_ending_in_a_letter_is_no_unit():
    table = read("person,age_group,race\n" + "".join(f"{i},{20 + 10 * (i % 4)}s,{5 + i % 2}K\n" for i in range(12)))
    assert types(table) == {"person": "number", "age_group": "string", "race": "string"}


def test_a_sign_on_some_values_only_keeps_the_column_text():
    table = read("x\n5%\n7\n9\n")
    assert types(table) == {"x": "string"}


def test_r_na_and_the_other_missing_markers_are_missing_and_counted_by_marker():
    rows = ["5.1", "NA", "4.9", "N/A", "NaN", "null", ".", "-", "", "6.2", "NA", "7.0"]
    table = read("subject,weight\n" + "".join(f"{i},{w}\n" for i, w in enumerate(rows, start=1)))
    weight = column(table, "weight")
    assert weight.type == "number" and table.rows_loaded == len(rows)
    assert [v for v in weight.values if v is not None] == [5.1, 4.9, 6.2, 7.0]
    assert weight.missing == {"NA": 2, "N/A": 1, "NaN": 1, "null": 1, ".": 1, "-": 1, "empty": 1}
    assert weight.facts()["missing"] == 8


def test_a_few_stray_words_in_a_number_column_are_missing_and_said():
    values = [str(10 + i) for i in range(60)] + ["?", "unknown"]
    price = column(read("price\n" + "\n".join(values) + "\n"), "price")
    assert price.type == "number" and price.stray == {"?": 1, "unknown": 1}
    assert price.values.count(None) == 2


def test_a_numbered_id_column_is_flagged_as_numbered_and_codes_with_leading_zeros_stay_text():
    lines = ["Subject,Zip,Growth"] + [f"{1 + i % 20},0{1000 + i},{i * 1.5}" for i in range(60)]
    table = read("\n".join(lines))
    subject = column(table, "Subject").facts()
    assert subject["type"] == "number" and subject["whole_numbers"] and subject["numbered"]
    assert subject["distinct"] == 20
    assert column(table, "Zip").type == "string" and column(table, "Growth").facts()["numbered"] is False


def test_an_excel_export_with_a_bom_a_title_row_empty_columns_at_the_right_and_blank_lines():
    text = "\ufeffSales report 2024,,,,\nName,Amount,Date,,\nCafé,12,2024-01-05,,\nBäckerei,13,2024-01-06,,\n,,,,\n"
    table = read(text)
    assert table.dialect.encoding == "utf-8 with a byte-order mark"
    assert table.title == ["Sales report 2024"] and table.dropped_columns == 2 and table.blank_lines == 1
    assert types(table) == {"Name": "string", "Amount": "number", "Date": "date"}
    assert table.rows_in_file == table.rows_loaded == 2 and column(table, "Name").values == ["Café", "Bäckerei"]


def test_a_windows_1252_export_with_semicolons_is_decoded_and_said():
    table = read("Name;Amount\nCafé;12,5\nSüß;3\n“quoted”;4\n", encoding="cp1252")
    assert table.dialect.encoding == "cp1252" and column(table, "Name").values[:2] == ["Café", "Süß"]
    assert column(table, "Amount").values == [12.5, 3, 4]
    assert any("Windows-1252" in n for n in table.notes())


def test_latin_1_when_the_bytes_are_not_windows_1252():
    table = read(b"name,n\nA\x81b,1\n")
    assert table.dialect.encoding == "latin-1" and column(table, "name").values == ["A\x81b"]


@pytest.mark.parametrize(
    ("cells", "expected"),
    [
        (["2024-01-05", "2024-02-13"], ["2024-01-05", "2024-02-13"]),
        (["05/01/2024", "13/02/2024"], ["2024-01-05", "2024-02-13"]),
        (["01/05/2024", "02/13/2024"], ["2024-01-05", "2024-02-13"]),
        (["05.01.2024", "13.02.2024"], ["2024-01-05", "2024-02-13"]),
        (["5 Jan 2024", "13 Feb 2024"], ["2024-01-05", "2024-02-13"]),
        (["Jan 5, 2024", "Feb 13, 2024"], ["2024-01-05", "2024-02-13"]),
        (["2024-01-05 00:00:00", "2024-02-13 00:00:00"], ["2024-01-05", "2024-02-13"]),
        (["2024/01/05", "NA"], ["2024-01-05", None]),
        (["1998-11", "1998-12", "1999-01"], ["1998-11-01", "1998-12-01", "1999-01-01"]),  # a monthly series
        (["2019-Q4", "2020-Q1"], ["2019-10-01", "2020-01-01"]),  # a quarterly series
    ],
)
def test_dates_in_the_common_formats(cells, expected):
    table = read("day\n" + "\n".join(f'"{c}"' for c in cells) + "\n")
    assert column(table, "day").type == "date" and column(table, "day").values == expected


def test_an_ambiguous_day_and_month_is_said_as_a_guess():
    table = read("day,n\n01/02/2024,1\n03/04/2024,2\n")
    assert any("no day above 12" in n for n in table.notes())


def test_dates_written_day_first_are_said_so():
    table = read("day,n\n31/12/1988,1\n01/01/1989,2\n")
    assert "day's dates read as day/month/year" in table.notes()
    assert not any("dates read as" in n for n in read("day,n\n1988-12-31,1\n").notes())


def test_lines_not_loaded_are_counted_with_their_reason():
    table = read("a,b\n1,2\n3\n4,5,6\n7,8\n")
    assert table.rows_in_file == 4 and table.rows_loaded == 2
    assert table.rejected == [
        {"line": 3, "reason": "1 fields, expected 2"},
        {"line": 4, "reason": "3 fields, expected 2"},
    ]


def test_what_a_person_says_wins_over_the_sniffing():
    assert [c.name for c in read("a;b\n1;2\n3;4\n", separator=",").columns] == ["a_b"]
    told = read("a;b\n1,5;x\n2,5;y\n", types={"b": "number"})
    assert column(told, "b").type == "number" and column(told, "b").stray == {"x": 1, "y": 1}


def test_a_file_with_nothing_in_it_is_an_error():
    with pytest.raises(ReadError, match="empty"):
        read("\n\n")
