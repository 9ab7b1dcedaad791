"""Messy CSV files as real exports come, for the held-out sets (holdout3 to holdout6).

A set names each messy file's kind by the pandas.read_csv options that read it back right (one of the
dicts below), the R-style files whose missing values are "NA", and the columns written with thousands
separators; the other files are written as rules.write_datasets writes them. The analyst must work out
those options for itself; the sets' make.py read the files back with them.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

import pandas as pd

from bench.eval import rules

SEMICOLON_DECIMAL_COMMA = {"sep": ";", "decimal": ","}  # a European spreadsheet's export
THOUSANDS = {"thousands": ","}  # quoted numbers with thousands separators ("16,310")
EXCEL_BOM = {"encoding": "utf-8-sig"}  # Excel's "CSV UTF-8": a byte-order mark, CRLF line ends
EXCEL_CP1252 = {"encoding": "cp1252"}  # Excel's plain "CSV" on Windows: Windows-1252, CRLF line ends


def write_export(path: Path, frame: pd.DataFrame, options: dict, thousands_columns: Iterable[str] = ()) -> None:
    """One file as the export ``options`` names; with no options (and no thousands columns), as R's
    write.csv writes it: NA for the missing values."""
    thousands_columns = tuple(thousands_columns)
    if thousands_columns:
        frame = frame.copy()
        for column in thousands_columns:
            frame[column] = frame[column].map("{:,}".format)  # quoted by to_csv, since they hold commas
        frame.to_csv(path, index=False, float_format="%.10g", lineterminator="\n")
    elif options is SEMICOLON_DECIMAL_COMMA:
        frame.to_csv(path, index=False, sep=";", decimal=",", float_format="%.10g", lineterminator="\n")
    elif options in (EXCEL_BOM, EXCEL_CP1252):
        frame.to_csv(path, index=False, encoding=options["encoding"], float_format="%.10g", lineterminator="\r\n")
    else:
        frame.to_csv(path, index=False, na_rep="NA", float_format="%.10g", lineterminator="\n")
    assert path.stat().st_size < 200_000, f"{path} is {path.stat().st_size} bytes"


def write_all(
    frames: dict[str, pd.DataFrame],
    directory: Path,
    *,
    messy: dict[str, dict],
    r_na: Iterable[str] = (),
    thousands_columns: dict[str, tuple[str, ...]] | None = None,
) -> list[str]:
    """Every frame as ``<directory>/<name>.csv``: the messy ones and R's as such, the rest plain; the
    names in order."""
    r_na = tuple(r_na)
    thousands_columns = thousands_columns or {}
    plain = {n: f for n, f in frames.items() if n not in messy and n not in r_na}
    rules.write_datasets(plain, directory)
    for name in frames.keys() - plain.keys():
        write_export(directory / f"{name}.csv", frames[name], messy.get(name, {}), thousands_columns.get(name, ()))
    return list(frames)


def read_export(directory: Path, name: str, messy: dict[str, dict]) -> pd.DataFrame:
    """A dataset as it should be read: a messy file with the options that read it right, then the
    importer's column names."""
    frame = pd.read_csv(directory / f"{name}.csv", **messy.get(name, {}))
    frame.columns = rules.imported_names(list(frame.columns))
    return frame
