"""Messy CSV files as R, Excel and European locales write them, each written into a folder (a
session's workspace, or one to attach from a browser) and returning the figures an analyst computes
from it by hand: the shapes the import must read right."""

import statistics
from pathlib import Path

FEEDS = ["casein", "soybean", "linseed"]
# Twenty numbered chicks, three weighings each: casein grows most. A numbered subject, not a measure.
CHICKS = [(1 + i % 20, FEEDS[(i % 20) % 3], 100 + 40 * ((i % 20) % 3 == 0) + i) for i in range(60)]


def attach(folder: Path, name, text, encoding="utf-8"):
    (folder / name).write_bytes(text.encode(encoding))


def chicks_with_na(folder, missing_every=7):
    """R's write.csv: NA for a missing weight; the weights that are there, by feed."""
    lines, kept = ['"Chick","Feed","weight"'], {f: [] for f in FEEDS}
    for index, (chick, feed, weight) in enumerate(CHICKS):
        if index % missing_every == 3:
            lines.append(f'{chick},"{feed}",NA')
        else:
            lines.append(f'{chick},"{feed}",{weight}')
            kept[feed].append(weight)
    attach(folder, "chicks.csv", "\n".join(lines) + "\n")
    return kept


def semicolon_prices(folder):
    """A European export: semicolons, decimal commas, thousands dots; the prices by region."""
    rows = [("Nord" if i % 2 else "Süd", 1000 + i * 12.5, 1.5 + i % 4) for i in range(40)]
    lines = ["Region;Preis;Menge"]
    for region, price, quantity in rows:
        whole, cents = f"{price:.2f}".split(".")
        grouped = f"{int(whole):,}".replace(",", ".")
        lines.append(f"{region};{grouped},{cents};{str(quantity).replace('.', ',')}")
    attach(folder, "preise.csv", "\n".join(lines) + "\n", encoding="cp1252")
    return {r: [p for region, p, _ in rows if region == r] for r in ("Nord", "Süd")}


def one_column_decimal_commas(folder):
    """One column of decimal-comma numbers: a comma splits every value in two, so only a person's word
    says the file has one column."""
    values = [10 + i * 0.25 for i in range(30)]
    lines = ["Gewicht"] + [f"{v:.2f}".replace(".", ",") for v in values]
    attach(folder, "gewicht.csv", "\n".join(lines) + "\n")
    return values


def thousands_prices(folder):
    """Prices written with thousands separators, quoted (how Excel writes them to CSV)."""
    rows = [("Lyon" if i % 3 else "Paris", 250_000 + i * 10_500) for i in range(30)]
    lines = ["City,Price,Year"] + [f'{city},"{price:,}",{2000 + i % 5}' for i, (city, price) in enumerate(rows)]
    attach(folder, "houses.csv", "\n".join(lines) + "\n")
    return {c: statistics.fmean(p for city, p in rows if city == c) for c in ("Lyon", "Paris")}


def excel_export(folder):
    """Excel on Windows: a BOM, a title line, empty columns at the right, a blank line at the end."""
    rows = [("Café " + "ABC"[i % 3], 10 + i, f"2024-01-{1 + i:02d}") for i in range(24)]
    lines = ["Sales report 2024,,,,", "Shop,Amount,Date,,"] + [f"{s},{a},{d},," for s, a, d in rows] + [",,,,"]
    attach(folder, "sales.csv", "\ufeff" + "\r\n".join(lines) + "\r\n")
    return rows


def prices_with_words(folder):
    """A price column where many cells say in words that the price is unknown: read as text until a
    person says it is a number."""
    words = ["unknown", "n.k.", "ask", "tbc", "?"]
    rows = [
        ("north" if i % 2 else "south", words[i % 5] if i % 4 == 0 else str(20 + i + 15 * (i % 2))) for i in range(40)
    ]
    attach(folder, "quotes.csv", "region,Price\n" + "".join(f"{r},{p}\n" for r, p in rows))
    return {r: [float(p) for region, p in rows if region == r and p[0].isdigit()] for r in ("north", "south")}


def signed_margins(folder):
    """Day-first dates ("31/12/2019"), a margin written with its % sign and a price with its $ sign (quoted,
    with thousands separators): the mean price of each shop."""
    lines, prices = ["shop,date,margin,price"], {s: [] for s in "xyz"}
    for i in range(120):
        day, month, year, shop = 1 + i % 28, 1 + i % 12, 2015 + i % 6, "xyz"[i % 3]
        margin, price = 10 + (year - 2015) * 1.5 + (i % 7) / 10, 900 + 40 * i
        lines.append(f'{shop},{day:02d}/{month:02d}/{year},{margin:.2f}%,"${price:,.2f}"')
        prices[shop].append(price)
    attach(folder, "margins.csv", "\n".join(lines) + "\n")
    return {shop: statistics.fmean(p) for shop, p in prices.items()}


def quarterly_changes(folder):
    """A quarterly series with its quarters written as "1970 Q1": the change in savings each quarter."""
    lines = ["obs,quarter,savings"]
    for i in range(80):
        year, quarter = 1970 + i // 4, 1 + i % 4
        lines.append(f"{i + 1},{year} Q{quarter},{(i % 9) - 4 + (2.5 if quarter == 1 else 0) + i / 40:.3f}")
    attach(folder, "changes.csv", "\n".join(lines) + "\n")
