project_id    = "globex-portal-dev"
api_image     = "us-central1-docker.pkg.dev/globex-portal-dev/apps/portal-api:main"
db_tier       = "db-f1-micro"
min_instances = 0
