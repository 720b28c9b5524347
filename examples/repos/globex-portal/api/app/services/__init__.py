"""Business logic called by the routers."""
