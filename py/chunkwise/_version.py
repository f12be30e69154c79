"""The package version: one place, read by the package, describe(), the rows and the wheel (pyproject)."""
__version__ = "0.1.0"
