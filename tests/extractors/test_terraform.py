"""Terraform extraction: resources, GCP project ids per tfvars env, secrets, catalog rows."""

from __future__ import annotations

from test_python import facts_of, write

INFRA = {
    "main.tf": """
        provider "google" {
          project = var.project_id
          region  = var.region
        }

        locals {
          prefix = "shop"
        }

        data "google_project" "current" {
          project_id = var.project_id
        }

        module "sa" {
          source  = "terraform-google-modules/service-accounts/google"
          version = "~> 4.2"
          project_id = var.project_id
        }

        resource "google_storage_bucket" "assets" {
          name     = "${local.prefix}-${var.env}-assets"
          location = "ASIA"
          project  = "shared-assets-prj"
        }
        """,
    "run.tf": """
        resource "google_cloud_run_v2_service" "api" {
          name     = "api"
          location = var.region
          template {
            containers {
              env {
                name  = "MODE"
                value = "x"
              }
              env {
                name = "API_TOKEN"
                value_source {
                  secret_key_ref {
                    secret  = google_secret_manager_secret.token.secret_id
                    version = "latest"
                  }
                }
              }
            }
          }
        }

        resource "google_secret_manager_secret" "token" {
          secret_id = "api-token"
          replication {
            auto {}
          }
        }
        """,
    "variables.tf": """
        variable "project_id" {
          type = string
        }
        variable "region" {
          default = "asia-northeast1"
        }
        variable "env" {
          default = "dev"
        }
        variable "db_password" {
          default = "hunter2-not-kept"
        }
        """,
    "environments/dev.tfvars": 'project_id = "shop-dev"\nenv = "dev"\n',
    "environments/prod.tfvars": 'project_id = "shop-prod"\nenv = "prod"\ndb_password = "p"\n',
}


def test_projects_resolve_per_tfvars_env_and_through_the_provider(tmp_path):
    facts, nodes, edges = facts_of(write(tmp_path, INFRA), component="infra")
    run = nodes["google_cloud_run_v2_service.api"]
    assert run.kind == "tf_resource" and (run.file, run.line) == ("run.tf", 1)
    assert run.attrs["type"] == "google_cloud_run_v2_service" and run.attrs["name"] == "api"
    assert run.attrs["gcp_projects"] == ["shop-dev", "shop-prod"]
    assert run.attrs["gcp_projects_by_env"] == {"dev": "shop-dev", "prod": "shop-prod"}
    assert run.attrs["gcp_project_from"] == "provider"
    assert run.attrs["location"] == "asia-northeast1"  # variable default
    assert run.attrs["env_vars"] == ["API_TOKEN", "MODE"]
    assert run.attrs["secret_env"] == {"API_TOKEN": "google_secret_manager_secret.token"}
    bucket = nodes["google_storage_bucket.assets"]
    assert bucket.attrs["gcp_projects"] == ["shared-assets-prj"]
    assert bucket.attrs["resource_name_by_env"] == {
        "dev": "shop-dev-assets",
        "prod": "shop-prod-assets",
    }
    assert nodes["data.google_project.current"].attrs["gcp_projects"] == ["shop-dev", "shop-prod"]
    module = nodes["module.sa"]
    assert module.attrs["source"] == "terraform-google-modules/service-accounts/google"
    assert module.attrs["gcp_projects_by_env"]["prod"] == "shop-prod"
    secret = nodes["google_secret_manager_secret.token"]
    assert secret.attrs["secret_id"] == "api-token"
    assert ("run.tf", "google_secret_manager_secret.token", "DEFINES") in edges


def test_variables_keep_defaults_but_never_secret_values(tmp_path):
    facts, nodes, _ = facts_of(write(tmp_path, INFRA), component="infra")
    assert nodes["var.region"].attrs["default"] == "asia-northeast1"
    assert nodes["var.project_id"].attrs["values_by_env"] == {
        "dev": "shop-dev",
        "prod": "shop-prod",
    }
    pw = nodes["var.db_password"].attrs
    assert "default" not in pw and "values_by_env" not in pw and pw["envs"] == ["prod"]
    assert "hunter2" not in repr([n.attrs for n in facts.nodes])
    assert nodes["environments/prod.tfvars"].attrs["tfvars_env"] == "prod"


def test_catalog_rows_for_resource_data_and_module_types(tmp_path):
    facts, _, _ = facts_of(write(tmp_path, INFRA), component="infra")
    rows = sorted((r.name, r.file, r.line) for r in facts.catalog if r.table == "tf_types")
    assert rows == [
        ("google_cloud_run_v2_service", "run.tf", 1),
        ("google_project", "main.tf", 10),
        ("google_secret_manager_secret", "run.tf", 23),
        ("google_storage_bucket", "main.tf", 20),
        ("module:terraform-google-modules/service-accounts/google", "main.tf", 14),
    ]


def test_folder_per_env_terraform_tfvars(tmp_path):
    _, nodes, _ = facts_of(write(tmp_path, {
        "main.tf": 'variable "project" {}\nresource "google_pubsub_topic" "t" {\n  project = var.project\n  name = "t"\n}\n',
        "envs/staging/terraform.tfvars": 'project = "acme-staging"\n',
        "envs/prod/terraform.tfvars": 'project = "acme-prod"\n',
    }), component="infra")  # fmt: skip
    topic = nodes["google_pubsub_topic.t"].attrs
    assert topic["gcp_projects_by_env"] == {"prod": "acme-prod", "staging": "acme-staging"}
