"""Two small tables that share a key (iso3): countries with their regions, populations with their sizes."""

COUNTRIES = """iso3,country,region
FRA,France,Europe
DEU,Germany,Europe
ITA,Italy,Europe
ESP,Spain,Europe
JPN,Japan,Asia
IND,India,Asia
IDN,Indonesia,Asia
KEN,Kenya,Africa
NGA,Nigeria,Africa
EGY,Egypt,Africa
XKX,Kosovo,Europe
"""
POPULATIONS = """iso3,population,life_expectancy
FRA,68.2,82.5
DEU,84.1,80.9
ITA,58.9,83.5
ESP,48.1,83.2
JPN,124.5,84.5
IND,1428.6,70.8
IDN,277.5,68.3
KEN,55.1,61.4
NGA,223.8,52.7
EGY,112.7,70.2
TWN,23.9,80.9
"""
