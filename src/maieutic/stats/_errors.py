"""The error raised for statistics that are undefined on the given data."""


class UndefinedStatistic(ValueError):
    """The statistic has no value on this data (the message says why)."""
