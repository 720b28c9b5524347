"""Python: the per-file query index (`index`), modules and symbols (`symbols`), and
FastAPI/Flask routes (`routes`)."""
