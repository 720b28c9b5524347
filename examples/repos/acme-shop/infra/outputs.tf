output "contact_api_url" {
  description = "Default run.app URL of the Contact API (the custom domain maps to it)."
  value       = google_cloud_run_v2_service.contact_api.uri
}

output "web_url" {
  value = google_cloud_run_v2_service.web.uri
}

output "project_number" {
  value = data.google_project.current.number
}
