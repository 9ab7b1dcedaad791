"""The other names countries go by in questions and in public tables ("US" for "United States", "South
Korea" for the World Bank's "Korea, Rep."): a value said by any of its names is that value. Plain Python."""

from __future__ import annotations

import re

NAMES = (
    ("United States", "United States of America", "USA", "U.S.", "U.S.A.", "US"),
    ("United Kingdom", "UK", "U.K.", "Britain", "Great Britain", "GB"),
    ("Korea, Rep.", "South Korea", "Republic of Korea", "Korea, South"),
    ("Korea, Dem. Rep.", "North Korea", "Korea, North", "DPRK"),
    ("Russian Federation", "Russia"),
    ("Iran, Islamic Rep.", "Iran"),
    ("Egypt, Arab Rep.", "Egypt"),
    ("Viet Nam", "Vietnam"),
    ("Czech Republic", "Czechia"),
    ("Turkey", "Turkiye", "Türkiye"),
    ("Netherlands", "Holland", "The Netherlands"),
    ("Cote d'Ivoire", "Côte d'Ivoire", "Ivory Coast"),
    ("Myanmar", "Burma"),
    ("Congo, Dem. Rep.", "DR Congo", "DRC", "Democratic Republic of the Congo"),
    ("Hong Kong, China", "Hong Kong SAR, China", "Hong Kong"),
    ("Taiwan", "Chinese Taipei", "Taiwan, China"),
    ("Syrian Arab Republic", "Syria"),
    ("Venezuela, RB", "Venezuela"),
    ("Yemen, Rep.", "Yemen"),
    ("Slovak Republic", "Slovakia"),
    ("Kyrgyz Republic", "Kyrgyzstan"),
    ("Lao PDR", "Laos"),
    ("United Arab Emirates", "UAE", "Emirates"),
    ("Swaziland", "Eswatini"),
    ("Macedonia", "North Macedonia", "Macedonia, FYR"),
)
_GROUP = {name.lower(): group for group in NAMES for name in group}


def said_as(value: str, text: str) -> int | None:
    """Where ``text`` calls the country ``value`` by another of its names; an abbreviation ("US", "UK")
    counts only in capitals, so "us" and "uk" in a sentence are words."""
    for name in _GROUP.get(value.lower().strip(), ()):
        if name.lower() == value.lower().strip():
            continue
        cased = name.replace(".", "").isupper()
        pattern = rf"(?<![\w.]){re.escape(name)}(?![\w])"
        found = re.search(pattern, text) if cased else re.search(pattern, text, re.I)
        if found:
            return found.start()
    return None
