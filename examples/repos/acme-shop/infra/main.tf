terraform {
  required_version = ">= 1.6.0"

  required_providers {
    google = {
      source  = "hashicorp/google"
      version = "~> 5.40"
    }
  }

  backend "gcs" {
    bucket = "acme-shop-tfstate"
    prefix = "shop"
  }
}

provider "google" {
  project = var.project_id
  region  = var.region
}

data "google_project" "current" {
  project_id = var.project_id
}

module "service_accounts" {
  source       = "terraform-google-modules/service-accounts/google"
  version      = "~> 4.2"
  project_id   = var.project_id
  names        = ["contact-api", "shop-web"]
  display_name = "ACME Shop runtime"
}

resource "google_artifact_registry_repository" "apps" {
  location      = var.region
  repository_id = "apps"
  format        = "DOCKER"
  description   = "Container images for the ACME Shop services"
}
