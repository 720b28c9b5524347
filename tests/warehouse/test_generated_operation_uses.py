"""Where a frontend uses a generated operation besides calling it in a plain module: inside
a Vue or Svelte component's `<script>` block, and handed over as a value (a query
library's query function, an SWR fetcher, a variable called later). Each use is bridged by
the operation's name to the backend route, at the line of the use."""

from __future__ import annotations

from textwrap import dedent

from bridgekit import calls_of, extracted

PROJECT = {"aviary": {"site": {"role": "frontend"}, "api": {"role": "api"}}}
API = {
    "aviary/api/requirements.txt": "fastapi\n",
    "aviary/api/main.py": dedent("""\
        from fastapi import FastAPI

        app = FastAPI()


        @app.get("/birds", operation_id="listBirds")
        def birds():
            return []


        @app.get("/nests", operation_id="listNests")
        def nests():
            return []


        @app.post("/birds/{bird_id}/ring", operation_id="ringBird")
        def ring(bird_id: int):
            return {}
        """),
}
SITE = {
    "aviary/site/package.json": dedent("""\
        {"scripts": {"api": "openapi-ts -i http://localhost:8000/openapi.json -o src/gen"},
         "devDependencies": {"@hey-api/openapi-ts": "0.60.0"}}
        """),
}


def _at(out) -> dict[tuple[str, int], dict]:
    return {(e["file"], e["line"]): e for e in calls_of(out)}


def test_generated_operations_called_in_vue_and_svelte_script_blocks(tmp_path):
    files = {**API, **SITE,
        "aviary/site/src/Birds.vue": dedent("""\
            <template>
              <ul><li v-for="b in birds">{{ b }}</li></ul>
            </template>
            <script setup lang="ts">
            import { listBirds } from './gen';
            const birds = await listBirds();
            </script>
            """),
        "aviary/site/src/Ring.svelte": dedent("""\
            <script lang="ts">
              import { ringBird } from './gen';
              export let id: number;
              const ring = () => ringBird({ path: { bird_id: id } });
            </script>

            <button on:click={ring}>ring</button>
            """),
    }  # fmt: skip
    got = _at(extracted(tmp_path, PROJECT, files, "aviary"))
    assert sorted(got) == [("src/Birds.vue", 6), ("src/Ring.svelte", 4)]
    listed, ringed = got[("src/Birds.vue", 6)], got[("src/Ring.svelte", 4)]
    assert listed["dst"].endswith(":route:GET /birds")
    assert ringed["dst"].endswith(":route:POST /birds/{bird_id}/ring")
    for edge in (listed, ringed):
        assert (edge["attrs"]["resolution"], edge["attrs"]["confidence"]) == ("operation", "high")
    assert any("operationId ringBird" in ev for ev in ringed["attrs"]["evidence"])
    assert any(ev.startswith("package.json:1") for ev in ringed["attrs"]["evidence"])


def test_an_operation_passed_as_a_value_is_a_call_where_it_is_passed(tmp_path):
    files = {**API, **SITE,
        "aviary/site/src/queries.ts": dedent("""\
            import { useQuery } from '@tanstack/react-query';
            import useSWR from 'swr';
            import { listBirds, listNests, ringBird } from './gen';

            export const useBirds = () =>
              useQuery({ queryKey: ['birds'], queryFn: listBirds });
            export const useNests = () => useSWR('nests', listNests);
            const ringer = ringBird;
            export const ringAll = (ids: number[]) => ids.map((id) => ringer({ id }));
            export type Lister = typeof listBirds;
            """),
    }  # fmt: skip
    got = _at(extracted(tmp_path, PROJECT, files, "aviary"))
    assert sorted(line for _, line in got) == [6, 7, 8]  # not the import, not the type
    assert got[("src/queries.ts", 6)]["dst"].endswith(":route:GET /birds")
    assert got[("src/queries.ts", 7)]["dst"].endswith(":route:GET /nests")
    ring = got[("src/queries.ts", 8)]
    assert ring["dst"].endswith(":route:POST /birds/{bird_id}/ring")
    assert (ring["attrs"]["resolution"], ring["attrs"]["confidence"]) == ("operation", "high")
    assert any("operationId ringBird" in ev for ev in ring["attrs"]["evidence"])
