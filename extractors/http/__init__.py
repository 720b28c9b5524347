"""Outbound HTTP calls: URL evaluation (`urls`), the http_call output shared by both
languages (`emit`), the JS-family and Python scanners (`js`, `python`) and the extractor
that runs them (`calls`)."""
