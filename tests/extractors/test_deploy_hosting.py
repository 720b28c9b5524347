"""Hosting configs → settings and env declarations at their file:line: Firebase Hosting
rewrites and regions, App Hosting env and secrets, Vercel and Netlify build env."""

from __future__ import annotations

from jsrepo import extract
from test_deploy_settings import declarations, settings

FIREBASE = """
    {
      "hosting": [
        {
          "site": "shop-web",
          "public": "build",
          "rewrites": [
            {
              "source": "/backend/**",
              "run": { "serviceId": "shop-api", "region": "europe-west1" }
            },
            { "source": "/hooks/*", "function": { "functionId": "hooks", "region": "asia-east1" } },
            { "regex": "^/legacy/.*$", "function": "legacyApi" },
            { "source": "**", "destination": "/index.html" }
          ]
        },
        {
          "site": "shop-ssr",
          "source": ".",
          "frameworksBackend": { "region": "europe-west4", "maxInstances": 3 }
        }
      ],
      "functions": [{ "source": "fns", "codebase": "main", "runtime": "nodejs20" }]
    }
    """


def test_firebase_hosting_rewrites_and_regions(tmp_path):
    facts = extract(tmp_path, {"firebase.json": FIREBASE})
    got = settings(facts)
    assert got["firebase.json:8"] == (
        "hosting.rewrites",
        "/backend/** → Cloud Run service shop-api (europe-west1)",
    )
    assert got["firebase.json:11"] == (
        "hosting.rewrites",
        "/hooks/* → Cloud Function hooks (asia-east1)",
    )
    assert got["firebase.json:12"] == (
        "hosting.rewrites",
        "^/legacy/.*$ → Cloud Function legacyApi",
    )
    assert got["firebase.json:13"] == ("hosting.rewrites", "** → page /index.html")
    region = facts.node("setting:firebase.json:19:hosting.frameworksBackend.region")
    assert region.attrs["value"] == "europe-west4"
    assert region.attrs["about"].endswith("region (site shop-ssr)")
    assert facts.node("setting:firebase.json:22:functions.source").attrs["value"] == "fns"
    run = facts.node("setting:firebase.json:8:hosting.rewrites").attrs
    assert run["refers_to"] == "shop-api" and run["region"] == "europe-west1"
    assert run["refers_kind"] == "cloud_run_service" and run["path"] == "/backend/**"
    assert run["about"] == "Firebase Hosting rewrite (site shop-web)"
    assert facts.node("setting:firebase.json:5:hosting.public").attrs["value"] == "build"
    # the firebase-hosting gateway model's code_file keeps the rewrites that reach code, at
    # their lines, and declares the settings
    code_file = facts.node("code_file:firebase.json")
    assert [(r.get("source", r.get("regex")), r["line"]) for r in code_file.attrs["rewrites"]] == [
        ("/backend/**", 8),
        ("/hooks/*", 11),
        ("^/legacy/.*$", 12),
    ]
    declares = facts.edges("DECLARES")
    assert ("code_file:firebase.json", "setting:firebase.json:8:hosting.rewrites") in declares


def test_app_hosting_env_values_and_secrets(tmp_path):
    facts = extract(
        tmp_path,
        {
            "apphosting.yaml": """
                runConfig:
                  maxInstances: 4
                env:
                  # from Secret Manager
                  - variable: MAPS_API_KEY
                    secret: maps-key
                  - variable: PUBLIC_SHOP_URL
                    value: https://shop.example
                    availability:
                      - BUILD
                      - RUNTIME
                """,
            "apphosting.staging.yaml": "env:\n  - variable: PUBLIC_SHOP_URL\n    value: x\n",
            "src/maps.js": "export const key = process.env.MAPS_API_KEY;\n",
        },
    )
    got = settings(facts)
    assert got["apphosting.yaml:6"] == ("env.MAPS_API_KEY.secret", "maps-key")
    assert got["apphosting.yaml:2"] == ("runConfig.maxInstances", "4")
    secret = facts.node("setting:apphosting.yaml:6:env.MAPS_API_KEY.secret").attrs
    assert secret["refers_to"] == "MAPS_API_KEY" and secret["secret"] == "maps-key"
    assert declarations(facts, "MAPS_API_KEY") == [("apphosting.yaml:5", "apphosting")]
    assert declarations(facts, "PUBLIC_SHOP_URL") == [
        ("apphosting.staging.yaml:2", "apphosting"),
        ("apphosting.yaml:7", "apphosting"),
    ]
    maps = facts.node("env_var:MAPS_API_KEY")
    assert maps.attrs["declared_in"] == ["apphosting.yaml"]
    assert facts.edges("READS_ENV")  # the read in src/maps.js stays
    assert facts.node("env_var:PUBLIC_SHOP_URL").attrs["values"] == {
        "apphosting.yaml": "https://shop.example"
    }


def test_vercel_and_netlify_build_env(tmp_path):
    facts = extract(
        tmp_path,
        {
            "vercel.json": """
                {
                  "buildCommand": "SITE_ORIGIN=\\"${SITE_ORIGIN:-https://$VERCEL_URL}\\" npm run build",
                  "env": { "SHOP_REGION": "eu" },
                  "build": { "env": { "ANALYTICS_HOST": "stats.shop.example" } },
                  "rewrites": [{ "source": "/api/:path*", "destination": "https://api.shop.example/:path*" }],
                  "regions": ["fra1"]
                }
                """,
            "netlify.toml": """
                [build]
                  command = "export SITE_ORIGIN=\\"${SITE_ORIGIN:-$URL}\\" && npm run build"
                  publish = "out"

                [build.environment]
                  NODE_VERSION = "20"

                [context.production.environment]
                  SHOP_REGION = "eu"

                [[redirects]]
                  to = "https://api.shop.example/:splat"
                  from = "/api/*"
                  status = 200

                [[redirects]]
                  from = "/old"
                  to = "/new"
                """,
            "src/site.ts": "export const origin = process.env.SITE_ORIGIN;\n",
        },
    )
    assert declarations(facts, "SITE_ORIGIN") == [
        ("netlify.toml:2", "netlify"),
        ("vercel.json:2", "vercel"),
    ]
    assert declarations(facts, "SHOP_REGION") == [
        ("netlify.toml:9", "netlify"),
        ("vercel.json:3", "vercel"),
    ]
    assert declarations(facts, "ANALYTICS_HOST") == [("vercel.json:4", "vercel")]
    assert declarations(facts, "NODE_VERSION") == [("netlify.toml:6", "netlify")]
    got = settings(facts)
    assert got["vercel.json:5"] == ("rewrites", "/api/:path* → https://api.shop.example/:path*")
    assert got["vercel.json:6"] == ("regions", "fra1")
    assert got["netlify.toml:13"] == ("redirects", "/api/* → https://api.shop.example/:splat")
    assert facts.node("setting:netlify.toml:13:redirects").attrs["about"] == (
        "Netlify rewrite (proxy)"
    )
    assert got["netlify.toml:17"] == ("redirects", "/old → /new")
    origin = facts.node("env_var:SITE_ORIGIN")
    assert "values" not in origin.attrs  # a shell expression, not a URL
    assert (origin.file, origin.line) == ("src/site.ts", 1)  # read before any .env declares it


def test_bad_vercel_json_is_one_warning_line(tmp_path):
    facts = extract(tmp_path, {"vercel.json": "{ not json"})
    (problem,) = [p for p in facts.problems if p.path == "vercel.json"]
    assert "not valid JSON" in problem.message


def test_odd_shapes_are_skipped_without_failing(tmp_path):
    facts = extract(
        tmp_path,
        {
            "firebase.json": '{"hosting": [{"rewrites": {"a": 1}}], "functions": 7}',
            "vercel.json": '{"rewrites": {"a": 1}, "env": [1], "buildCommand": 5}',
            "apphosting.yaml": "env:\n  - just-a-string\n  - variable: [1]\nrunConfig: 3\n",
            "docker-compose.yml": (
                "services:\n  web:\n    image: [a]\n    environment: 'A=1'\n"
                "  api:\n    environment:\n      - 'HAS SPACE=1'\n      - OK_NAME=2\n"
            ),
            "package.json": '{"engines": ["node >= 0.4"]}',
            "netlify.toml": '[build]\ncommand = """\nmulti\n"""\n',
        },
    )
    assert settings(facts) == {}
    assert declarations(facts, "OK_NAME") == [("docker-compose.yml:8", "docker-compose")]
    assert not [e for e in facts.raw.edges if "HAS SPACE" in e.dst]
