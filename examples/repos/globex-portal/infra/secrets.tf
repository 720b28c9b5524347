# Secret container only; versions are added by hand (`gcloud secrets versions add payment-api-key`).
resource "google_secret_manager_secret" "payment_api_key" {
  secret_id = "payment-api-key"
  replication {
    auto {}
  }
  labels = { app = "portal-api" }
}

resource "google_secret_manager_secret_iam_member" "api_access" {
  secret_id = google_secret_manager_secret.payment_api_key.id
  role      = "roles/secretmanager.secretAccessor"
  member    = "serviceAccount:${google_service_account.api.email}"
}
