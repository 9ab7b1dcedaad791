"""CSV files read as a careful analyst reads them: the dialect sniffed, the columns typed, every line
accounted for. Plain Python, no Django: ``dialect`` how the file is written, ``column_types`` what each
column holds, ``reading`` the whole file as a table."""
