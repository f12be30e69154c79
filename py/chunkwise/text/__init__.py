"""Prose and Markdown structure: the heading outline and fences, the candidate cuts
of every level, fenced code cut as code, grapheme clusters.
"""
