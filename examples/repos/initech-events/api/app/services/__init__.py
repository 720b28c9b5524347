"""Clients for systems outside this service."""
