# Secret containers only. Versions are added out of band (see the rotation runbook);
# no secret value is ever written to Terraform state from this repo.

resource "google_secret_manager_secret" "zendesk_api_token" {
  secret_id = "zendesk-api-token"
  replication {
    auto {}
  }
  labels = { app = "contact-api" }
}

resource "google_secret_manager_secret" "recaptcha_secret" {
  secret_id = "recaptcha-secret"
  replication {
    auto {}
  }
  labels = { app = "contact-api" }
}

resource "google_secret_manager_secret" "revalidate_secret" {
  secret_id = "revalidate-secret"
  replication {
    auto {}
  }
  labels = { app = "shop-web" }
}

resource "google_secret_manager_secret_iam_member" "contact_api_access" {
  for_each = {
    zendesk   = google_secret_manager_secret.zendesk_api_token.id
    recaptcha = google_secret_manager_secret.recaptcha_secret.id
  }
  secret_id = each.value
  role      = "roles/secretmanager.secretAccessor"
  member    = "serviceAccount:${module.service_accounts.emails["contact-api"]}"
}

resource "google_secret_manager_secret_iam_member" "web_access" {
  secret_id = google_secret_manager_secret.revalidate_secret.id
  role      = "roles/secretmanager.secretAccessor"
  member    = "serviceAccount:${module.service_accounts.emails["shop-web"]}"
}
