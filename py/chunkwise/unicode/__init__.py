"""One definition each of whitespace and the character classes the cuts use,
from tables pinned to tiktoken's Unicode version.
"""
