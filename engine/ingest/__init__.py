"""Where a PDF goes: the ingestion pipeline (pipeline.py) and one module per stage."""
