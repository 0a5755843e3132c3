"""Single source of the package version (read by the signature of every result)."""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("maieutic")
except PackageNotFoundError:  # running from a source tree that was not installed
    __version__ = "0.0.0+unknown"
