"""The ``maieutic`` command line: thin wrappers over the library."""
