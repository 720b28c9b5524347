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


DEPLOY = {
    "vars.tf": """
        variable "zone_name" {
          description = "Where the shop runs"
          default     = "europe-west9"
        }
        variable "admin_token" {
          default = "never-kept"
        }
        """,
    "app.tf": """
        resource "google_sql_database_instance" "main" {
          name             = "shopdb"
          database_version = "MYSQL_8_0"
        }

        resource "google_secret_manager_secret" "conf" {
          secret_id = "shop_conf"
        }

        resource "google_secret_manager_secret_version" "conf" {
          secret      = google_secret_manager_secret.conf.id
          secret_data = <<EOT
        SHOP_SIGNING_KEY="${random_password.k.result}"
        SHOP_DB="mysql://${google_sql_database_instance.main.name}"
        EOT
        }

        resource "google_cloud_run_v2_service" "shop" {
          name = "shop"
          template {
            containers {
              env {
                name = "SHOP_ENV"
                value_source {
                  secret_key_ref {
                    secret  = google_secret_manager_secret.conf.secret_id
                    version = "3"
                  }
                }
              }
              readiness_probe {
                http_get {
                  path = "/up"
                }
              }
            }
          }
        }
        """,
}


def _settings(facts):
    return {(n.name, n.file, n.line): n.attrs for n in facts.nodes if n.kind == "setting"}


def test_settings_for_defaults_engine_secret_id_probe_and_secret_env(tmp_path):
    facts, nodes, edges = facts_of(write(tmp_path, DEPLOY), component="infra")
    got = _settings(facts)
    zone = got[("zone_name", "vars.tf", 3)]
    assert zone["value"] == "europe-west9" and zone["about"] == "Where the shop runs"
    assert not [k for k in got if k[0] == "admin_token"]
    assert "never-kept" not in repr([n.attrs for n in facts.nodes])
    assert got[("database_version", "app.tf", 3)]["value"] == "MYSQL_8_0"
    conf = got[("secret_id", "app.tf", 7)]
    assert conf["value"] == "shop_conf" and conf["carries"] == ["SHOP_DB", "SHOP_SIGNING_KEY"]
    probe = got[("path", "app.tf", 33)]
    assert probe["value"] == "GET /up" and probe["probe"] == "readiness_probe"
    env = got[("SHOP_ENV", "app.tf", 26)]
    assert env["value"] == "Secret Manager secret shop_conf (3)"
    assert env["refers_to"] == "google_secret_manager_secret.conf"
    assert ("app.tf", "app.tf:3:database_version", "DECLARES") in edges
    assert ("google_sql_database_instance.main", "app.tf:3:database_version", "DECLARES") in edges
    assert edges[("SHOP_ENV", "google_secret_manager_secret.conf", "RESOLVES_TO")].line == 26


def test_env_vars_in_a_secret_payload_are_declared_at_their_line_without_values(tmp_path):
    facts, nodes, edges = facts_of(write(tmp_path, DEPLOY), component="infra")
    key = nodes["SHOP_SIGNING_KEY"]
    assert key.kind == "env_var" and (key.file, key.line) == ("app.tf", 13)
    assert key.attrs["secret_like"] and nodes["SHOP_DB"].line == 14
    declared = edges[("app.tf", "SHOP_DB", "DECLARES")]
    assert declared.line == 14
    resolves = edges[("SHOP_DB", "google_secret_manager_secret.conf", "RESOLVES_TO")]
    assert resolves.attrs["secret_id"] == "shop_conf" and resolves.attrs["at"] == "app.tf:7"
    assert "mysql://" not in repr([n.attrs for n in facts.nodes] + [e.attrs for e in facts.edges])


def test_a_resource_names_the_variable_default_its_value_comes_from(tmp_path):
    _, nodes, _ = facts_of(write(tmp_path, INFRA), component="infra")
    run = nodes["google_cloud_run_v2_service.api"].attrs
    assert run["variables"] == {"location": "var.region (default at variables.tf:5)"}


def test_a_resource_lists_what_it_declares_at_its_lines(tmp_path):
    _, nodes, _ = facts_of(write(tmp_path, DEPLOY), component="infra")
    assert nodes["google_sql_database_instance.main"].attrs["settings"] == [
        "app.tf:3 database_version = MYSQL_8_0"
    ]
    assert nodes["var.zone_name"].attrs["settings"] == ["vars.tf:3 zone_name = europe-west9"]
    shop = nodes["google_cloud_run_v2_service.shop"].attrs["settings"]
    assert "app.tf:33 path = GET /up" in shop and "app.tf:23 env SHOP_ENV" in shop
