resource "google_cloud_run_v2_service" "api" {
  name     = "portal-api"
  location = var.region

  template {
    service_account = google_service_account.api.email
    scaling {
      min_instance_count = var.min_instances
    }
    volumes {
      name = "cloudsql"
      cloud_sql_instance {
        instances = [google_sql_database_instance.main.connection_name]
      }
    }
    containers {
      image = var.api_image
      volume_mounts {
        name       = "cloudsql"
        mount_path = "/cloudsql"
      }
      env {
        name  = "DATABASE_URL"
        value = "postgresql+psycopg://${google_sql_user.api.name}@/${google_sql_database.globex.name}?host=/cloudsql/${google_sql_database_instance.main.connection_name}"
      }
      env {
        name = "PAYMENT_API_KEY"
        value_source {
          secret_key_ref {
            secret  = google_secret_manager_secret.payment_api_key.secret_id
            version = "latest"
          }
        }
      }
    }
  }
}

resource "google_cloud_run_v2_service_iam_member" "public" {
  location = google_cloud_run_v2_service.api.location
  name     = google_cloud_run_v2_service.api.name
  role     = "roles/run.invoker"
  member   = "allUsers"
}
