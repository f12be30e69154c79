"""Document rows in, chunk rows out, for Ray Data (and Spark, Dask): pip install 'chunkwise[ray]'.

    import ray
    from chunkwise.corpus.ray_data import ChunkRows, RowSettings

    (ray.data.read_parquet("docs/")                   # columns id, text, and any others
        .map_batches(ChunkRows, fn_constructor_kwargs={"max_tokens": 512, "overlap": 64},
                     batch_format="pyarrow", compute=ray.data.ActorPoolStrategy(size=8))
        .write_parquet("chunks/"))

Each actor builds one Chunker (one tokenizer load) and keeps it for every batch.
ChunkRows takes the options of the CLI's corpus mode, by the same names (they are
chunkwise.corpus.rows.RowSettings): max_tokens, overlap, strategy, encoding, overlap_unit,
id_field, text_field, max_chars, language, language_field, and tokenizer (a
tokenizer.json: a path every actor can read). Or one RowSettings object built in the
driver, which carries a tokenizer file's text to every actor:

    settings = RowSettings(max_tokens=256, language_field="path").with_tokenizer("tokenizer.json")
    ds.map_batches(ChunkRows, fn_constructor_kwargs={"settings": settings}, ...)

Rows of files, as ray.data.read_binary_files("docs/", include_paths=True) gives them (`bytes`
and `path`, no text field), are read as the CLI reads files: HTML, PDF and DOCX extracted
(a PDF's chunk rows have `pages`), text decoded; the path is the document's id.

The rows have the columns of the CLI's Parquet output (chunkwise.corpus.rows.arrow_schema),
with the same values for the same input and settings. The same callable takes a
pandas DataFrame, so it also runs as Spark's mapInPandas (chunk_frames, SPARK_SCHEMA)
and Dask's map_partitions (meta=empty_frame()).
"""
from __future__ import annotations

from collections.abc import Iterator

from .rows import RowMaker, RowSettings, arrow_schema, to_arrow

# Spark's DDL for the same columns, for mapInPandas(..., schema=SPARK_SCHEMA).
SPARK_SCHEMA = (
    "doc_id string, chunk_id string, index int, text string, start bigint, end bigint, token_count int,"
    " overlap_tokens int, boundary string, headings array<string>, pages array<int>, embed_text string, embed_tokens int,"
    " metadata string, chunker string,"
    " error string"
)


class ChunkRows:
    """A callable class: a batch of documents (pyarrow Table or RecordBatch, or a
    pandas DataFrame) -> a batch of chunk rows of the same kind. A document that
    fails is one row with `error` set, so one bad record never fails a job."""

    def __init__(self, settings: RowSettings | None = None, *, tokenizer: str | None = None, **options):
        if settings is None:
            settings = RowSettings(**options)  # a TypeError names an option that does not exist
        elif options:
            raise TypeError("give either settings or options, not both")
        self.maker = RowMaker(settings.with_tokenizer(tokenizer) if tokenizer else settings)

    def _table(self, table):
        import pyarrow as pa

        out = []
        for doc in self.maker.table_docs(table):
            out += self.maker.rows(doc)
        return pa.Table.from_batches([to_arrow(out)], schema=arrow_schema())

    def __call__(self, batch):
        import pyarrow as pa

        if isinstance(batch, (pa.Table, pa.RecordBatch)):
            return self._table(batch)
        if hasattr(batch, "to_dict") and hasattr(batch, "columns"):  # pandas (Spark, Dask, Ray's "pandas" format)
            # Through Arrow, so numpy scalars become the Python values the CLI sees.
            return self._table(pa.Table.from_pandas(batch, preserve_index=False)).to_pandas()
        raise TypeError(f"expected a pyarrow Table or a pandas DataFrame, not {type(batch).__name__}")

    def chunk_frames(self, frames: Iterator) -> Iterator:
        """Spark's mapInPandas shape: an iterator of DataFrames in, one out."""
        for frame in frames:
            yield self(frame)


def empty_frame():
    """An empty pandas DataFrame with the output's columns and dtypes (Dask's `meta`)."""
    return arrow_schema().empty_table().to_pandas()
