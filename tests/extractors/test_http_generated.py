"""Generated API clients: each SDK method call is an http_call at the caller's line with the
method and URL template read from the generated file, `generated_client: true`, and the
generated lines as hops; the client's base comes from the instance or the generated default."""

from __future__ import annotations

from jsrepo import extract

# the shape swagger-typescript-api emits (our own small version of it)
STA = {
    ".env": "VITE_FARM_API=https://farm.example\n",
    "src/sdk/farm.ts": """
        /* THIS FILE WAS GENERATED: do not edit by hand */
        export class HttpClient {
          public baseUrl: string = "https://default.farm.example/api";
          private customFetch = (...a: Parameters<typeof fetch>) => fetch(...a);

          public request = async ({ path, ...params }: { path: string }) => {
            return this.customFetch(`${this.baseUrl}${path}`, params);
          };
        }

        export class Api extends HttpClient {
          barns = {
            listBarns: (params = {}) =>
              this.request({
                path: `/barns`,
                method: "GET",
                ...params,
              }),
            feedBarn: (barnId: string, data: object, params = {}) =>
              this.request({
                path: `/barns/${barnId}/feed`,
                method: "POST",
                body: data,
              }),
            removeBarn: (barnId: string) =>
              this.request({ path: `/barns/${barnId}`, method: "DELETE" }),
          };
        }
        """,
    "src/sdk/index.ts": """
        import { Api } from './farm';

        export const farm = new Api({ baseUrl: `${import.meta.env.VITE_FARM_API}/api` });
        """,
    "src/views/barns.ts": """
        import { farm } from '../sdk';

        export async function show() {
          const all = await farm.barns.listBarns();
          await farm.barns
            .feedBarn('north', { hay: 2 });
          return all;
        }

        export async function toggle(gone: boolean, id: string) {
          const act = gone ? farm.barns.removeBarn : farm.barns.feedBarn;
          return act(id);
        }
        """,
}

# the shape openapi-typescript-codegen emits
CODEGEN = {
    "src/client/core/OpenAPI.ts": "export const OpenAPI = { BASE: 'https://orchard.example/v3' };\n",
    "src/client/services/TreesService.ts": """
        import { OpenAPI } from '../core/OpenAPI';
        import { request as __request } from '../core/request';

        export class TreesService {
          public static getTree(treeId: number) {
            return __request(OpenAPI, {
              method: 'GET',
              url: '/trees/{treeId}',
              path: { treeId: treeId },
            });
          }
        }
        """,
    "src/client/core/request.ts": "export const request = (config: any, options: any) => fetch(config.BASE + options.url);\n",
    "src/app.ts": """
        import { TreesService } from './client/services/TreesService';

        export const load = () => TreesService.getTree(7);
        """,
}


def _calls(f):
    return {(n.file, n.line, n.name): n for n in f.raw.nodes if n.kind == "http_call"}


def test_swagger_typescript_api_client_calls(tmp_path):
    f = extract(tmp_path, STA)
    calls = _calls(f)
    listing = calls[("src/views/barns.ts", 4, "GET {VITE_FARM_API}/api/barns")]
    assert listing.name == "GET {VITE_FARM_API}/api/barns"
    assert listing.attrs["generated_client"] is True
    assert listing.attrs["sdk_method"] == "Api.barns.listBarns"
    assert listing.attrs["hops"] == [
        "src/sdk/farm.ts:13",
        "src/sdk/farm.ts:15",
        "src/sdk/farm.ts:7",
    ]
    # the `.feedBarn(` line of a chained call
    feed = calls[("src/views/barns.ts", 6, "POST {VITE_FARM_API}/api/barns/north/feed")]
    assert (feed.attrs["env_var"], feed.attrs["path"]) == ("VITE_FARM_API", "/api/barns/north/feed")
    # nothing is emitted inside the generated file itself
    assert not [k for k in calls if k[0] == "src/sdk/farm.ts"]


def test_sdk_methods_chosen_at_run_time_are_candidates(tmp_path):
    f = extract(tmp_path, STA)
    calls = _calls(f)
    assert {k[2] for k in calls if k[1] == 11} == {
        "DELETE {VITE_FARM_API}/api/barns/{barnId}",
        "POST {VITE_FARM_API}/api/barns/{barnId}/feed",
    }
    assert all(calls[k].attrs["candidate"] for k in calls if k[1] == 11)
    [row] = [u for u in f.unresolved if u.file == "src/views/barns.ts"]
    assert row.line == 12 and "farm.barns.removeBarn or farm.barns.feedBarn" in row.reason


def test_openapi_typescript_codegen_static_service(tmp_path):
    f = extract(tmp_path, CODEGEN)
    [tree] = [n for n in f.raw.nodes if n.kind == "http_call"]
    assert (tree.file, tree.line) == ("src/app.ts", 3)
    assert tree.name == "GET https://orchard.example/v3/trees/{treeId}"
    assert tree.attrs["generated_client"] is True
    assert tree.attrs["hops"][:2] == [
        "src/client/services/TreesService.ts:5",
        "src/client/services/TreesService.ts:8",
    ]
