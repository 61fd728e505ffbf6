"""Where a question goes: routing, retrieval, statements, cells, formulas, the answerer."""
