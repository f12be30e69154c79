"""Corpus mode: many documents through a pool of workers into JSONL or Parquet,
the rows each document makes, and the Ray Data adapter.
"""
