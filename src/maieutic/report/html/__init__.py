"""A self-contained HTML report of results files (``maieutic report``): summary tables
with signatures, distributions, bootstrap intervals, meta-evaluation plots and every
question, in one file with its styles, script and SVG figures inline."""

from maieutic.report.html.page import render_report, write_report

__all__ = ["render_report", "write_report"]
