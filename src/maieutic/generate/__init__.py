"""Shared generation machinery: parsing model output and selecting candidates."""
