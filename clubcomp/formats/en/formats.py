"""English dates and times in the style of the Dutch pages (Django's nl formats): day before
month and a 24-hour clock ("3 December 2026 21:32"), so that a sentence never ends in "p.m.."
and a page has one style in both languages."""

DATE_FORMAT = "j F Y"
TIME_FORMAT = "H:i"
DATETIME_FORMAT = "j F Y H:i"
YEAR_MONTH_FORMAT = "F Y"
MONTH_DAY_FORMAT = "j F"
SHORT_DATE_FORMAT = "j M Y"
SHORT_DATETIME_FORMAT = "j M Y H:i"
FIRST_DAY_OF_WEEK = 1  # Monday, as in the Netherlands
