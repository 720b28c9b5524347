"""Generated clients that are not committed: the frontend imports operations from the
generator's output folder (named by its config), and each call resolves by the operation's
unique name to the backend route — through an OpenAPI document in the project or the
backend framework's operationId convention. Real repos written by the test, real
extraction, real bridge."""

from __future__ import annotations

from textwrap import dedent

from bridgekit import calls_of, extracted, reasons

PROJECT = {"kennel": {"web": {"role": "frontend"}, "api": {"role": "api"}}}
TSCONFIG = '{"compilerOptions": {"baseUrl": ".", "paths": {"@/*": ["src/*"]}}}'
API = {
    "kennel/api/requirements.txt": "fastapi\n",
    "kennel/api/app/main.py": dedent("""\
        from fastapi import FastAPI

        app = FastAPI()


        @app.get("/dogs")
        def list_dogs():
            return []


        @app.post("/dogs/{dog_id}/adopt")
        def adopt(dog_id: int):
            return {}


        @app.delete("/dogs/{dog_id}", operation_id="rehomeDog")
        def remove(dog_id: int):
            return {}
        """),
    "kennel/api/openapi.yaml": dedent("""\
        openapi: 3.0.3
        info: {title: kennel, version: "1"}
        paths:
          /dogs/{dogId}/adopt:
            post:
              operationId: adoptDog
              responses: {"200": {description: ok}}
        """),
}


def _by_line(edges) -> dict[int, dict]:
    return {e["line"]: e for e in edges}


def test_hey_api_config_and_alias_import_resolve_by_operation_name(tmp_path):
    files = {
        **API,
        "kennel/web/package.json": '{"devDependencies": {"@hey-api/openapi-ts": "0.60.0"}}',
        "kennel/web/tsconfig.json": TSCONFIG,
        "kennel/web/openapi-ts.config.ts": dedent("""\
            import { defineConfig } from '@hey-api/openapi-ts';

            export default defineConfig({
              input: 'http://localhost:8000/openapi.json',
              output: { path: 'src/client' },
            });
            """),
        "kennel/web/src/main.ts": dedent("""\
            import { listDogsDogsGet, adoptDog, groomDog, rehomeDog } from '@/client';

            export async function start() {
              const dogs = await listDogsDogsGet();
              await adoptDog({ path: { dogId: 3 } });
              await groomDog();
              await rehomeDog({ path: { dogId: 3 } });
              return dogs;
            }
            """),
        "kennel/web/src/hooks.ts": dedent("""\
            import { useMutation } from '@tanstack/react-query';
            import { adoptDogMutation } from '@/client/@tanstack/react-query.gen';

            export const useAdopt = () => useMutation(adoptDogMutation());
            """),
    }
    out = extracted(tmp_path, PROJECT, files, "kennel")
    got = _by_line([e for e in calls_of(out) if e["file"] == "src/main.ts"])
    assert sorted(got) == [4, 5, 7]
    listed, adopted, rehomed = got[4], got[5], got[7]
    assert rehomed["dst"].endswith(":route:DELETE /dogs/{dog_id}")  # the route's own operation_id
    assert (rehomed["attrs"]["resolution"], rehomed["attrs"]["confidence"]) == ("operation", "high")
    assert any("operationId rehomeDog" in ev for ev in rehomed["attrs"]["evidence"])
    assert listed["dst"].endswith(":route:GET /dogs")
    a = listed["attrs"]
    assert (a["resolution"], a["confidence"]) == ("operation", "medium")  # a naming convention
    assert any("fastapi operation id list_dogs_dogs_get" in ev for ev in a["evidence"])
    assert any(ev.startswith("openapi-ts.config.ts:") for ev in a["evidence"])
    assert adopted["dst"].endswith(":route:POST /dogs/{dog_id}/adopt")
    b = adopted["attrs"]
    assert (b["resolution"], b["confidence"]) == ("operation", "high")  # the document says so
    assert "openapi.yaml:6 operationId adoptDog" in b["evidence"]
    [hook] = [e for e in calls_of(out) if e["file"] == "src/hooks.ts"]
    assert hook["dst"] == adopted["dst"]  # TanStack Query options named after the operation
    assert reasons(out)["src/main.ts:6"].startswith("generated operation groomDog: no operationId")


def test_cli_script_output_and_a_service_object_of_the_generated_client(tmp_path):
    files = {
        **API,
        "kennel/web/package.json": dedent("""\
            {"scripts": {"gen": "openapi --input ../api/openapi.yaml --output ./src/gen"},
             "devDependencies": {"openapi-typescript-codegen": "0.29.0"}}
            """),
        "kennel/web/src/adopt.ts": dedent("""\
            import { DogsService } from './gen';
            import { shout } from './util';

            export const adopt = (id: number) => DogsService.adoptDog({ dogId: id });
            export const loud = () => shout();
            """),
        "kennel/web/src/util.ts": "export const shout = () => 'woof';\n",
    }
    out = extracted(tmp_path, PROJECT, files, "kennel")
    [edge] = calls_of(out)
    assert (edge["file"], edge["line"]) == ("src/adopt.ts", 4)
    assert edge["dst"].endswith(":route:POST /dogs/{dog_id}/adopt")
    assert edge["attrs"]["resolution"] == "operation"
    assert any(ev.startswith("package.json:1") for ev in edge["attrs"]["evidence"])


def test_a_committed_client_is_followed_as_written_not_by_name(tmp_path):
    files = {
        **API,
        "kennel/web/package.json": dedent("""\
            {"scripts": {"gen": "openapi --input ../api/openapi.yaml --output ./src/gen"}}
            """),
        "kennel/web/src/gen/index.ts": dedent("""\
            export const adoptDog = (id: number) =>
              fetch(`/dogs/${id}/adopt`, { method: 'POST' });
            """),
        "kennel/web/src/adopt.ts": dedent("""\
            import { adoptDog } from './gen';

            export const adopt = () => adoptDog(1);
            """),
    }
    out = extracted(tmp_path, PROJECT, files, "kennel")
    assert all(e["attrs"]["resolution"] != "operation" for e in calls_of(out))


def test_drf_spectacular_names_a_collection_get_list_and_an_item_get_retrieve(tmp_path):
    from bridgekit import Facts, graph, write_kb

    kb = write_kb(tmp_path, {"kennel": {"web": {"role": "frontend"}, "api": {"role": "api"}}})
    web, api = Facts("kennel", "web"), Facts("kennel", "api")
    web.node("http_call", "a", "dogsList()", "src/a.ts", 3, operation="dogsList")
    web.node("http_call", "b", "dogsRetrieve()", "src/a.ts", 4, operation="dogsRetrieve")
    listing = api.route("GET", "/api/dogs/", framework="django-rest-framework")
    item = api.route("GET", "/api/dogs/<pk>/", framework="django-rest-framework")
    for route, fn in ((listing, "list"), (item, "retrieve")):
        handler = api.node("symbol", f"views.py#DogViewSet.{fn}", f"DogViewSet.{fn}", "views.py")
        api.edge(route, handler, "ROUTES_TO")
    got = {e["line"]: e["dst"] for e in calls_of(graph(kb, "kennel", web, api))}
    assert got == {3: listing, 4: item}


def test_a_name_two_apis_share_goes_to_the_one_the_client_is_generated_from(tmp_path):
    from bridgekit import Facts, graph, write_kb

    kb = write_kb(tmp_path, {"kennel": {
        "web": {"role": "frontend"},
        "dogs": {"role": "api", "envs": {"dev": {"url": "http://localhost:8001"}}},
        "cats": {"role": "api", "envs": {"dev": {"url": "http://localhost:8002"}}},
    }})  # fmt: skip
    web, dogs, cats = Facts("kennel", "web"), Facts("kennel", "dogs"), Facts("kennel", "cats")
    web.node("http_call", "a", "listPets()", "src/a.ts", 3, operation="listPets",
             generator="hey-api", generator_config="openapi-ts.config.ts:4",
             generated_from="http://localhost:8002/openapi.json")  # fmt: skip
    dogs.route("GET", "/pets", operation_id="listPets")
    mine = cats.route("GET", "/pets", operation_id="listPets")
    [edge] = calls_of(graph(kb, "kennel", web, dogs, cats))
    assert edge["dst"] == mine
    assert edge["attrs"]["evidence"][1] == (
        "openapi-ts.config.ts:4 hey-api generates the client from http://localhost:8002/openapi.json"
    )
