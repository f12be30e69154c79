"""Bytes in and out: decoding files as the CLI and the page do, the export
formats, and the stats of a result.
"""
