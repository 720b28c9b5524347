variable "project_id" {
  description = "globex-portal-dev or globex-portal-prod."
  type        = string
}

variable "region" {
  type    = string
  default = "us-central1"
}

variable "api_image" {
  description = "Fully qualified image of the API, built by Cloud Build."
  type        = string
}

variable "db_tier" {
  description = "Cloud SQL machine tier."
  type        = string
  default     = "db-custom-1-3840"
}

variable "min_instances" {
  type    = number
  default = 0
}
