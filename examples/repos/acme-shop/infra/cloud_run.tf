locals {
  image_base = "${var.region}-docker.pkg.dev/${var.project_id}/${google_artifact_registry_repository.apps.repository_id}"
}

resource "google_cloud_run_v2_service" "contact_api" {
  name     = "contact-api"
  location = var.region

  template {
    service_account = module.service_accounts.emails["contact-api"]
    containers {
      image = "${local.image_base}/contact-api:${var.contact_api_image_tag}"
      env {
        name  = "ALLOWED_ORIGINS"
        value = var.allowed_origins
      }
      env {
        name  = "ZENDESK_SUBDOMAIN"
        value = var.zendesk_subdomain
      }
      env {
        name  = "ZENDESK_EMAIL"
        value = "contact-bot@acme.example"
      }
      env {
        name = "ZENDESK_API_TOKEN"
        value_source {
          secret_key_ref {
            secret  = google_secret_manager_secret.zendesk_api_token.secret_id
            version = "latest"
          }
        }
      }
      env {
        name = "RECAPTCHA_SECRET"
        value_source {
          secret_key_ref {
            secret  = google_secret_manager_secret.recaptcha_secret.secret_id
            version = "latest"
          }
        }
      }
    }
  }
}

resource "google_cloud_run_v2_service" "web" {
  name     = "shop-web"
  location = var.region

  template {
    service_account = module.service_accounts.emails["shop-web"]
    containers {
      image = "${local.image_base}/shop-web:${var.web_image_tag}"
      env {
        name = "REVALIDATE_SECRET"
        value_source {
          secret_key_ref {
            secret  = google_secret_manager_secret.revalidate_secret.secret_id
            version = "latest"
          }
        }
      }
    }
  }
}

resource "google_cloud_run_v2_service_iam_member" "public_invoker" {
  for_each = {
    contact_api = google_cloud_run_v2_service.contact_api.name
    web         = google_cloud_run_v2_service.web.name
  }
  location = var.region
  name     = each.value
  role     = "roles/run.invoker"
  member   = "allUsers"
}
