"""HTTP routers, one per resource; each is mounted under /v1 in app.main."""
