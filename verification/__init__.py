"""Doc-vs-code checks: drift (what the KB says that the code contradicts) and the report.

`code` gathers one component's code facts (graph frames + its repo's files), `claims`
reads what a doc claims, `drift` compares the two, `report` renders the verification
report and table. Imports `kb`, `warehouse` and `vocab`; never Dagster.
"""
