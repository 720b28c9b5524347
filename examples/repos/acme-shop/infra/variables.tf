variable "project_id" {
  description = "GCP project that hosts the environment (acme-shop-dev or acme-shop-prod)."
  type        = string
}

variable "region" {
  description = "Region for Cloud Run and Artifact Registry."
  type        = string
  default     = "asia-northeast1"
}

variable "env" {
  description = "Environment name: dev or prod."
  type        = string
}

variable "contact_api_image_tag" {
  description = "Image tag of contact-api to deploy."
  type        = string
}

variable "web_image_tag" {
  description = "Image tag of the web frontend to deploy."
  type        = string
}

variable "allowed_origins" {
  description = "Comma-separated origins allowed by the Contact API CORS policy."
  type        = string
}

variable "zendesk_subdomain" {
  description = "Zendesk subdomain (sandbox in dev)."
  type        = string
}
