"""Deploy files → `setting` nodes and env declarations at their file:line: runtime versions,
Dockerfiles, Procfile, App Engine and Docker Compose (hosting configs: test_deploy_hosting)."""

from __future__ import annotations

from jsrepo import extract


def settings(facts) -> dict[str, tuple[str, str]]:
    """`file:line` → (name, value) of every setting node."""
    return {
        f"{n.file}:{n.line}": (n.name, n.attrs["value"])
        for n in facts.raw.nodes
        if n.kind == "setting"
    }


def declarations(facts, name: str) -> list[tuple[str, str | None]]:
    """(`file:line`, via) of every DECLARES edge into env var `name`, sorted."""
    return sorted(
        (f"{e.file}:{e.line}", e.attrs.get("via"))
        for e in facts.raw.edges
        if e.type == "DECLARES" and e.dst.endswith(f":env_var:{name}")
    )


def test_node_and_python_versions_from_manifests_and_version_files(tmp_path):
    facts = extract(
        tmp_path,
        {
            "package.json": """
                {
                  "name": "shop",
                  "engines": {
                    "node": ">=20.3.0",
                    "yarn": "^1.22"
                  },
                  "packageManager": "yarn@1.22.19",
                  "dependencies": { "koa": "^2.15.0" }
                }
                """,
            ".nvmrc": b"\n  lts/iron  \n",
            ".python-version": "3.12.4\n",
            "worker/runtime.txt": "python-3.11.9\n",
            ".tool-versions": "# asdf\nnodejs 20.11.0\npython 3.12.1\n",
            "tests/fixtures/app/.nvmrc": "14\n",
            "worker/pyproject.toml": """
                [project]
                name = "worker"
                requires-python = ">=3.11"
                dependencies = ["httpx>=0.27"]
                """,
        },
    )
    got = settings(facts)
    assert got["package.json:4"] == ("engines.node", ">=20.3.0")
    assert got["package.json:5"] == ("engines.yarn", "^1.22")
    assert got["package.json:7"] == ("packageManager", "yarn@1.22.19")
    assert got[".nvmrc:2"] == (".nvmrc", "lts/iron")
    assert not any(where.startswith("tests/") for where in got)  # fixtures are not settings
    assert got[".python-version:1"] == (".python-version", "3.12.4")
    assert got["worker/runtime.txt:1"] == ("runtime.txt", "python-3.11.9")
    assert got[".tool-versions:2"] == ("nodejs", "20.11.0")
    assert got["worker/pyproject.toml:3"] == ("requires-python", ">=3.11")
    node = facts.node("setting:package.json:4:engines.node")
    assert node.attrs["about"] == "Node.js version required"
    assert node.attrs["source"] == "package.json"
    # the manifest's code_file declares it at that line; the manifest keeps its package rows
    declares = facts.edges("DECLARES")
    assert declares[("code_file:package.json", "setting:package.json:4:engines.node")].line == 4
    assert facts.node("code_file:package.json").attrs["manifest"] is True
    assert any(r.name == "koa" for r in facts.catalog if r.table == "packages")


def test_dockerfile_base_images_port_command_and_env(tmp_path):
    facts = extract(
        tmp_path,
        {
            "Dockerfile": """
                # build the bundle first
                FROM --platform=linux/amd64 node:20-slim AS build
                WORKDIR /src
                RUN npm ci && \\
                    npm run build

                FROM nginx:1.27-alpine
                COPY --from=build /src/dist /usr/share/nginx/html
                ENV API_ORIGIN=https://api.shop.example LOG_LEVEL=info
                ENV SHOP_SIGNING_KEY hunter2-not-stored
                EXPOSE 8080
                CMD ["nginx", \\
                     "-g", "daemon off;"]
                """,
            "deploy/worker.Dockerfile": "FROM python:3.12-slim\nFROM build\n",
        },
    )
    got = settings(facts)
    assert got["Dockerfile:2"] == ("FROM", "node:20-slim")
    assert facts.node("setting:Dockerfile:2:FROM").attrs["stage"] == "build"
    assert got["Dockerfile:7"] == ("FROM", "nginx:1.27-alpine")
    assert got["Dockerfile:11"] == ("EXPOSE", "8080")
    assert got["Dockerfile:12"] == ("CMD", '["nginx", "-g", "daemon off;"]')
    assert got["deploy/worker.Dockerfile:1"] == ("FROM", "python:3.12-slim")
    assert "deploy/worker.Dockerfile:2" in got  # `build` is no stage of this file
    assert declarations(facts, "API_ORIGIN") == [("Dockerfile:9", "Dockerfile")]
    assert declarations(facts, "SHOP_SIGNING_KEY") == [("Dockerfile:10", "Dockerfile")]
    assert facts.node("env_var:API_ORIGIN").attrs["values"] == {
        "Dockerfile": "https://api.shop.example"
    }
    key = facts.node("env_var:SHOP_SIGNING_KEY")
    assert key.attrs["secret_like"] is True and "values" not in key.attrs
    assert "hunter2" not in repr(facts.raw)


def test_procfile_and_app_engine_yaml(tmp_path):
    facts = extract(
        tmp_path,
        {
            "Procfile": "web: gunicorn shop.wsgi --bind 0.0.0.0:$PORT\nrelease: ./migrate.sh\n",
            "app.yaml": """
                runtime: python312
                entrypoint: gunicorn -b :$PORT shop.wsgi
                env_variables:
                  CATALOG_URL: "https://catalog.shop.example"
                """,
        },
    )
    got = settings(facts)
    assert got["Procfile:1"] == ("web", "gunicorn shop.wsgi --bind 0.0.0.0:$PORT")
    assert got["Procfile:2"] == ("release", "./migrate.sh")
    assert got["app.yaml:1"] == ("runtime", "python312")
    assert declarations(facts, "CATALOG_URL") == [("app.yaml:4", "app.yaml")]


COMPOSE = """
    services:
      shop:
        build: ./shop
        ports:
          - "8080:3000"
        environment:
          CATALOG_URL: "https://catalog.shop.example"
          DB_URL: "postgres://shop:pw-in-compose@db:5432/shop"
          PAYMENT_TOKEN: ${PAYMENT_TOKEN}
        env_file: .env
      db:
        image: postgres:16.3-alpine
        environment:
          - POSTGRES_DB=shop
          - POSTGRES_PASSWORD=pw-in-compose
          - TZ
    """


def test_compose_images_ports_and_environment_in_both_forms(tmp_path):
    facts = extract(
        tmp_path,
        {
            "docker-compose.yml": COMPOSE,
            "compose.override.yaml": "services:\n  db:\n    image: postgres:17\n",
            ".env.example": "DB_URL=postgres://localhost/shop\n",
            "src/db.js": "export const url = process.env.DB_URL;\n",
        },
    )
    got = settings(facts)
    assert got["docker-compose.yml:12"] == ("services.db.image", "postgres:16.3-alpine")
    assert got["compose.override.yaml:3"] == ("services.db.image", "postgres:17")
    assert got["docker-compose.yml:3"] == ("services.shop.build", "./shop")
    assert got["docker-compose.yml:5"] == ("services.shop.ports", "8080:3000")
    assert facts.node("setting:docker-compose.yml:12:services.db.image").attrs == {
        "value": "postgres:16.3-alpine",
        "about": "container image",
        "source": "docker-compose",
    }
    # env declarations: map form at the key's line, list form at the item's line
    assert declarations(facts, "DB_URL") == [
        (".env.example:1", None),
        ("docker-compose.yml:8", "docker-compose"),
    ]
    assert declarations(facts, "POSTGRES_DB") == [("docker-compose.yml:14", "docker-compose")]
    assert declarations(facts, "TZ") == [("docker-compose.yml:16", "docker-compose")]
    (tz,) = [e for e in facts.raw.edges if e.dst.endswith(":env_var:TZ")]
    assert tz.attrs == {"via": "docker-compose", "service": "db"}
    db_url = facts.node("env_var:DB_URL")
    assert (db_url.file, db_url.line) == (".env.example", 1)  # the first declaration stays
    assert db_url.attrs["declared_in"] == [".env.example", "docker-compose.yml"]
    assert facts.node("env_var:CATALOG_URL").attrs["values"] == {
        "docker-compose.yml": "https://catalog.shop.example"
    }
    assert facts.where("env_var:POSTGRES_DB") == "docker-compose.yml:14"
    assert "pw-in-compose" not in repr(facts.raw)  # credentials never stored
    rows = {r.name: r for r in facts.catalog if r.table == "env_vars"}
    assert rows["POSTGRES_DB"].attrs == {"declared": True, "read": False}
    assert rows["DB_URL"].attrs == {"declared": True, "read": True}
    assert facts.node("code_file:docker-compose.yml").attrs["language"] == "yaml"


def test_broken_compose_file_is_one_warning_line(tmp_path):
    facts = extract(tmp_path, {"docker-compose.yml": "services:\n  web: [unclosed\n"})
    (problem,) = [p for p in facts.problems if p.rule == "compose-file"]
    assert problem.path == "docker-compose.yml" and "fix the YAML" in problem.message
    assert settings(facts) == {}


def test_dockerfile_arg_defaults_pipfile_python_and_compose_merge_keys(tmp_path):
    facts = extract(
        tmp_path,
        {
            "Dockerfile": "ARG PY=3.12\nARG VARIANT\nFROM python:${PY}-slim\nFROM base:$VARIANT\n",
            "Pipfile": '[packages]\nrequests = "*"\n\n[requires]\npython_version = "3.11"\n',
            "compose.yaml": """
                x-app: &app
                  image: shop-app:2.1
                  environment:
                    SHOP_MODE: worker
                services:
                  queue:
                    <<: *app
                  web:
                    <<: *app
                    image: shop-web:2.1
                """,
        },
    )
    got = settings(facts)
    assert got["Dockerfile:3"] == ("FROM", "python:3.12-slim")
    assert facts.node("setting:Dockerfile:3:FROM").attrs["written"] == "python:${PY}-slim"
    assert got["Dockerfile:4"] == ("FROM", "base:$VARIANT")  # no default: as written
    assert got["Pipfile:5"] == ("python_version", "3.11")
    assert facts.node("setting:compose.yaml:2:services.queue.image").attrs["value"] == (
        "shop-app:2.1"
    )
    assert got["compose.yaml:10"] == ("services.web.image", "shop-web:2.1")
    assert declarations(facts, "SHOP_MODE") == [("compose.yaml:4", "docker-compose")]


def test_kubernetes_cloud_run_yaml_and_cloud_build(tmp_path):
    facts = extract(
        tmp_path,
        {
            "deploy/k8s.yaml": """
                apiVersion: v1
                kind: Service
                metadata: { name: shop-svc }
                spec: { ports: [{ port: 80 }] }
                ---
                apiVersion: apps/v1
                kind: Deployment
                metadata:
                  name: shop
                spec:
                  template:
                    spec:
                      containers:
                        - name: app
                          image: ghcr.io/acme/shop:3.4.0
                          ports:
                            - containerPort: 8080
                          env:
                            - name: CATALOG_URL
                              value: https://catalog.shop.example
                            - name: SHOP_DB_PASSWORD
                              valueFrom:
                                secretKeyRef:
                                  name: shop-db
                                  key: password
                """,
            "service.yaml": """
                apiVersion: serving.knative.dev/v1
                kind: Service
                metadata:
                  name: shop-api
                spec:
                  template:
                    spec:
                      containers:
                        - image: europe-docker.pkg.dev/acme/shop/api:latest
                """,
            "ci/app.cloudbuild.yaml": """
                steps:
                  - name: gcr.io/cloud-builders/docker
                    args: [build, -t, $_IMAGE, .]
                images:
                  - $_IMAGE
                substitutions:
                  _IMAGE: europe-docker.pkg.dev/acme/shop/api
                  _REGION: europe-west1
                """,
            ".github/dependabot.yml": "version: 2\nupdates: []\n",
        },
    )
    got = settings(facts)
    assert got["deploy/k8s.yaml:15"] == ("shop.containers[0].image", "ghcr.io/acme/shop:3.4.0")
    assert got["deploy/k8s.yaml:17"] == ("shop.containers[0].containerPort", "8080")
    assert got["deploy/k8s.yaml:24"] == (
        "env.SHOP_DB_PASSWORD.secretKeyRef",
        "shop-db (key password)",
    )
    image = facts.node("setting:deploy/k8s.yaml:15:shop.containers[0].image").attrs
    assert image["about"] == "container image (Deployment shop, container app)"
    assert declarations(facts, "CATALOG_URL") == [("deploy/k8s.yaml:19", "kubernetes")]
    assert declarations(facts, "SHOP_DB_PASSWORD") == [("deploy/k8s.yaml:21", "kubernetes")]
    assert got["service.yaml:9"] == (
        "shop-api.containers[0].image",
        "europe-docker.pkg.dev/acme/shop/api:latest",
    )
    assert got["ci/app.cloudbuild.yaml:7"] == (
        "substitutions._IMAGE",
        "europe-docker.pkg.dev/acme/shop/api",
    )
    assert got["ci/app.cloudbuild.yaml:8"] == ("substitutions._REGION", "europe-west1")
    assert got["ci/app.cloudbuild.yaml:5"] == ("images", "$_IMAGE")
    assert not any("shop-svc" in name for name, _ in got.values())  # a Service runs nothing
