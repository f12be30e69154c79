"""Document rows in, chunk rows out, for Ray Data (and Spark, Dask): pip install 'chunkwise[ray]'.

    import ray
    from chunkwise.ray_data import ChunkRows

    (ray.data.read_parquet("docs/")                   # columns id, text, and any others
        .map_batches(ChunkRows, fn_constructor_kwargs={"max_tokens": 512, "overlap": 64},
                     batch_format="pyarrow", compute=ray.data.ActorPoolStrategy(size=8))
        .write_parquet("chunks/"))

Each actor builds one Chunker (one tokenizer load) and keeps it for every batch.
The rows have the columns of the CLI's Parquet output (chunkwise.rows.arrow_schema),
with the same values for the same input and settings. The same callable takes a
pandas DataFrame, so it also runs as Spark's mapInPandas (chunk_frames, SPARK_SCHEMA)
and Dask's map_partitions (meta=empty_frame()).
"""
from __future__ import annotations

from collections.abc import Iterator

from .chunker import Chunker
from .rows import ID_FIELD, TEXT_FIELD, arrow_schema, chunker_label, doc_from_record, rows, to_arrow

# Spark's DDL for the same columns, for mapInPandas(..., schema=SPARK_SCHEMA).
SPARK_SCHEMA = (
    "doc_id string, chunk_id string, index int, text string, start bigint, end bigint, token_count int,"
    " overlap_tokens int, boundary string, headings array<string>, metadata string, chunker string, error string"
)


class ChunkRows:
    """A callable class: a batch of documents (pyarrow Table or RecordBatch, or a
    pandas DataFrame) -> a batch of chunk rows of the same kind. A document that
    fails is one row with `error` set, so one bad record never fails a job."""

    def __init__(self, *, max_tokens: int = 512, overlap: int | None = None, strategy: str = "smart",
                 encoding: str = "cl100k_base", id_field: str = ID_FIELD, text_field: str = TEXT_FIELD,
                 max_chars: int | None = None):
        self.chunker = Chunker(max_tokens=max_tokens, overlap=overlap, strategy=strategy, encoding=encoding)
        self.label = chunker_label(self.chunker.settings)
        self.id_field, self.text_field, self.max_chars = id_field, text_field, max_chars

    def _table(self, records: list[dict]):
        import pyarrow as pa

        out = []
        for record in records:
            doc = doc_from_record(record, self.id_field, self.text_field)
            out += rows(self.chunker, doc, max_chars=self.max_chars, label=self.label)
        return pa.Table.from_batches([to_arrow(out)], schema=arrow_schema())

    def __call__(self, batch):
        import pyarrow as pa

        if isinstance(batch, (pa.Table, pa.RecordBatch)):
            return self._table(batch.to_pylist())
        if hasattr(batch, "to_dict") and hasattr(batch, "columns"):  # pandas (Spark, Dask, Ray's "pandas" format)
            # Through Arrow, so numpy scalars become the Python values the CLI sees.
            return self._table(pa.Table.from_pandas(batch, preserve_index=False).to_pylist()).to_pandas()
        raise TypeError(f"expected a pyarrow Table or a pandas DataFrame, not {type(batch).__name__}")

    def chunk_frames(self, frames: Iterator) -> Iterator:
        """Spark's mapInPandas shape: an iterator of DataFrames in, one out."""
        for frame in frames:
            yield self(frame)


def empty_frame():
    """An empty pandas DataFrame with the output's columns and dtypes (Dask's `meta`)."""
    return arrow_schema().empty_table().to_pandas()
