"""What ingestion writes and questions read: the catalogue, the indexes, the writer lock, the doctor."""
