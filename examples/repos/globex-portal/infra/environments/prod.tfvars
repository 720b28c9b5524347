project_id    = "globex-portal-prod"
api_image     = "us-central1-docker.pkg.dev/globex-portal-prod/apps/portal-api:v3.2.0"
min_instances = 1
