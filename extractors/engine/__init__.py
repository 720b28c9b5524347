"""The extraction engine: mechanism written once for both languages — one evaluator
(`evaluate.py`, values in `values.py`), one wrapper fixed point (`recognize.py`), model
interpretation (`interpret.py`, `decorators.py`), one mount tree (`mounts.py`), one
emitter (`emit.py`). Framework and client knowledge lives in `extractors/models/`."""
