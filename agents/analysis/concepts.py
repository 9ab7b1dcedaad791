"""The everyday words for the things columns measure: "tall" for a height, "pricey" for a price, "trips" for
rides, "dying" for a death column. A question's words and a column name's words that share a concept name
one thing (words.py matches them). Plain Python, a table and nothing else.
"""

# A concept and the words (stems) that name it; a column name's words are mapped the same way.
CONCEPTS = {
    "height": {"height", "tall", "high_", "stature"},
    "weight": {"weight", "heavy", "weigh", "mass", "light_"},
    "age": {"age", "old", "young", "aged", "elderly"},
    "life": {"life", "lives", "lifespan", "lifetime"},  # "lived the shortest lives": life expectancy
    "length": {"length", "long", "len"},
    "width": {"width", "wide", "narrow", "breadth"},
    "size": {"size", "big", "small_", "large_"},
    "price": {"price", "expensive", "cheap", "cost", "costly", "priced", "pricey", "pricy", "fare"},
    "income": {"income", "earn", "earning", "salary", "wage", "pay", "paid", "rich", "wealth", "wealthy"},
    "power": {"power", "powerful", "kw", "mw", "gw", "watt", "horsepower", "hp"},  # rated_kw is its power
    "energy": {"energy", "kwh", "mwh", "gwh", "twh", "electricity"},  # kwh_total is the energy delivered
    "speed": {"speed", "fast", "slow", "quick", "velocity"},
    "temperature": {"temperature", "temp", "hot", "cold", "warm", "cool", "celsius", "fahrenheit", "sst", "degree"},
    "fertility": {"fertility", "birth", "fecundity"},
    "doctor": {"doctor", "md", "physician", "gp"},
    "walking": {"step", "walk", "pace", "stride"},
    "flow": {"discharge", "streamflow", "runoff", "river"},  # a river's discharge is how high it runs
    "rain": {"rain", "rainfall", "precipitation", "precip", "wet", "dry"},
    "fuel": {"fuel", "consumption", "economy", "efficient", "efficiency", "gas", "gasoline", "petrol", "mileage",
             "mpg", "litre", "liter", "l100km"},
    "population": {"population", "populous", "inhabitant", "people", "resident", "pop"},
    "revenue": {"revenue", "sale", "turnover", "takings"},
    "profit": {"profit", "profitable", "margin"},
    "duration": {"duration", "wait", "waiting", "minute", "hour", "time_", "long"},
    "score": {"score", "grade", "mark", "rating", "rate_"},
    "quantity": {"quantity", "unit", "qty", "volume_"},
    "distance": {"distance", "far", "km", "mile", "dist"},
    "unemployment": {"unemployment", "unemployed", "jobless"},
    "investment": {"investment", "invest", "capex"},
    "employment": {"employment", "employed", "job", "worker"},
    "gdp": {"gdp", "output"},
    "sex": {"sex", "gender", "male", "female", "men", "women", "man", "woman"},
    "kind": {"kind", "type", "sort", "category", "categories"},
    "screen": {"screen", "monitor", "display"},
    "payer": {"payer", "payor", "insurance", "insurer", "insured"},
    "beauty": {"beauty", "looking", "looks", "attractive", "attractiveness", "handsome", "pretty"},
    "occupation": {"occupation", "profession", "job", "career", "trade"},
    "audience": {"audience", "viewer", "viewership", "viewing", "watched", "watching", "listener"},
    "depth": {"depth", "deep", "shallow"},
    "density": {"density", "dense", "dens", "densely"},
    "capita": {"capita", "person", "head"},  # "GDP per person", "per head": a per-capita column
    "sold": {"sold", "sell", "sale", "selling"},
    "channel": {"channel", "broadcaster", "network", "station", "broadcast"},
    "treatment": {"treatment", "treated", "intervention", "arm", "therapy"},  # a trial's arms
    "race": {"race", "racial", "ethnicity", "ethnic"},
    "ride": {"ride", "trip", "journey", "rental"},  # a bike share's rides are its trips, its rentals
    "occupancy": {"occupancy", "occupied", "occupy", "occupant"},
    "capacity": {"capacity", "space", "spaces", "seat", "seats", "place", "places", "slot", "spot", "berth"},
    "death": {"death", "die", "died", "dying", "dead", "deceased", "mortality", "fatal", "fatality"},
    "surgery": {"surgery", "surgical", "operation", "operated", "surgeon"},
    "outcome": {"outcome", "status", "fate", "result"},  # "how did the patients end up: which status"
    "relapse": {"relapse", "relapsed", "relapsing", "recurrence", "recurred"},
    # the short forms column names use for words a question spells out ("dep_delay": departure delay)
    "departure": {"departure", "depart", "dep"},
    "arrival": {"arrival", "arrive", "arr"},
    "humidity": {"humidity", "humid", "hum"},
    "education": {"education", "educated", "edu", "educ", "schooling"},
    "government": {"government", "gov", "govt"},
    "pressure": {"pressure", "pres"},
    "country": {"country", "nation", "nationality"},
    "maker": {"maker", "manufacturer", "brand", "vendor", "producer", "mfr"},
    "fund": {"fund", "etf"},  # an exchange-traded fund
    "region": {"region", "origin"},  # "by origin", "the region of origin"
    "ticker": {"ticker", "symbol", "stock"},
    "irradiance": {"irradiance", "irradiation", "insolation", "sunshine", "ghi", "dni", "radiation"},
    # the other side's score: "let in the fewest goals", "clubs that ship more goals" (goals_against)
    "against": {"against", "concede", "conceded", "concedes", "conceding", "let", "ship", "shipped", "allowed"},
    # large companies by their ticker, as a table of prices names its columns (one per stock)
    "aapl": {"aapl", "apple"},
    "msft": {"msft", "microsoft"},
    "amzn": {"amzn", "amazon"},
    "googl": {"googl", "goog", "google", "alphabet"},
    "meta": {"meta", "facebook"},
    "tsla": {"tsla", "tesla"},
    "nvda": {"nvda", "nvidia"},
    "amd": {"amd"},
    "intc": {"intc", "intel"},
    "ibm": {"ibm"},
    "jnj": {"jnj", "johnson"},
    "jpm": {"jpm", "jpmorgan", "chase"},
    "bac": {"bac", "bofa"},
    "xom": {"xom", "exxon", "exxonmobil"},
    "cvx": {"cvx", "chevron"},
    "ko": {"ko", "coca", "coke"},
    "pep": {"pep", "pepsi", "pepsico"},
    "pg": {"pg", "procter", "gamble"},
    "wmt": {"wmt", "walmart"},
    "hd": {"hd", "depot"},
    "unh": {"unh", "unitedhealth"},
    "lly": {"lly", "lilly"},
    "mrk": {"mrk", "merck"},
    "pfe": {"pfe", "pfizer"},
    "ge": {"ge"},
    "bby": {"bby", "bestbuy"},
    "dis": {"dis", "disney"},
    "nflx": {"nflx", "netflix"},
    "xrx": {"xrx", "xerox"},
    "adbe": {"adbe", "adobe"},
    "orcl": {"orcl", "oracle"},
    "csco": {"csco", "cisco"},
    "hpq": {"hpq", "hewlett"},
    "dell": {"dell"},
    "nasdaq": {"nasdaq", "ixic", "ndx"},
    "djia": {"djia", "dow"},
}  # fmt: skip

# Names that fuse their words, as weather stations' do (NOAA's TMAX, PRCP): the words each one stands for
FUSED = {
    "tmax": ("temperature", "max"),
    "tmin": ("temperature", "min"),
    "tavg": ("temperature", "average"),
    "tmean": ("temperature", "mean"),
    "prcp": ("precipitation",),
    "snwd": ("snow", "depth"),
    "wspd": ("wind", "speed"),
    "wdir": ("wind", "direction"),
    "awnd": ("wind", "average"),
    "rhum": ("relative", "humidity"),
}
