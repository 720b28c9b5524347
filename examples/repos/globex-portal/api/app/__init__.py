"""Globex partner portal API."""
