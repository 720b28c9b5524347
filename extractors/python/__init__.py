"""Python: the per-file query index (`index`), modules and symbols (`symbols`), static
evaluation of strings and types over them (`scope`, `classes`, `infer`, `values`), server
routes with their chains (`routes` for FastAPI/Flask, `django` + `drf` + `django_mw`, sharing
`deps` and `emit`), and env var reads (`env`)."""
