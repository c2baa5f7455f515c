"""Reads a Parquet file with pyarrow (an independent reader of the export files) and prints it as
JSON: the Arrow schema of each column, the row and row-group counts, the key-value metadata, and the
rows. Timestamps are printed as integer microseconds since the epoch (UTC), dates as ISO text, and
the other values as pyarrow gives them (JSON columns as their text)."""
import json
import sys

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

path = sys.argv[1]
parquet = pq.ParquetFile(path)
table = parquet.read()
columns = {}
for field in table.schema:
    column = table.column(field.name)
    if pa.types.is_timestamp(field.type):
        column = pc.cast(column, pa.int64())
    elif pa.types.is_date32(field.type):
        column = pc.strftime(column, format="%Y-%m-%d")
    elif not (pa.types.is_string(field.type) or pa.types.is_large_string(field.type)) and isinstance(field.type, pa.ExtensionType):
        column = column.cast(field.type.storage_type)
    columns[field.name] = column.to_pylist()
rows = [dict(zip(columns, values)) for values in zip(*columns.values())] if columns else []
schema = parquet.schema_arrow
print(
    json.dumps(
        {
            "columns": [{"name": f.name, "type": str(f.type), "nullable": f.nullable} for f in schema],
            "parquet_types": {
                c.name: {"physical": c.physical_type, "logical": str(c.logical_type)}
                for c in (parquet.schema.column(i) for i in range(len(parquet.schema)))
            },
            "num_rows": parquet.metadata.num_rows,
            "row_groups": parquet.metadata.num_row_groups,
            "metadata": {k.decode(): v.decode() for k, v in (parquet.metadata.metadata or {}).items()},
            "rows": rows,
        }
    )
)
