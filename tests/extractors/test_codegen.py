"""Generator configs of OpenAPI clients that are not committed: each tool's config names
the output folder, and a call of a function imported from it is an http_call of that
operation, with the config line and the generator's input as evidence."""

from __future__ import annotations

import json

from jsrepo import extract


def _ops(facts) -> dict[str, dict]:
    return {n.attrs["operation"]: n.attrs for n in facts.raw.nodes
            if n.kind == "http_call" and n.attrs.get("operation")}  # fmt: skip


def test_orval_projects_each_name_an_output(tmp_path):
    facts = extract(tmp_path, {
        "package.json": json.dumps({"devDependencies": {"orval": "^7.0.0"}}),
        "orval.config.ts": """
            import { defineConfig } from 'orval';

            export default defineConfig({
              seeds: {
                input: { target: '../nursery/openapi.json' },
                output: { target: './src/api/seeds.ts', client: 'react-query' },
              },
            });
            """,
        "src/Seeds.tsx": """
            import { useListSeeds, plantSeed } from './api/seeds';

            export function Seeds() {
              const { data } = useListSeeds();
              return <button onClick={() => plantSeed({ id: 1 })}>{data?.length}</button>;
            }
            """,
    })  # fmt: skip
    ops = _ops(facts)
    assert sorted(ops) == ["plantSeed", "useListSeeds"]
    seed = ops["plantSeed"]
    assert (seed["generator"], seed["generator_config"], seed["generated_from"]) == (
        "orval", "orval.config.ts:4", "../nursery/openapi.json")  # fmt: skip


def test_openapitools_json_and_a_namespace_import(tmp_path):
    facts = extract(tmp_path, {
        "package.json": json.dumps({"devDependencies": {"@openapitools/openapi-generator-cli": "2"}}),
        "openapitools.json": json.dumps({"generator-cli": {"version": "7.0.0", "generators": {
            "greenhouse": {"generatorName": "typescript-fetch", "inputSpec": "spec/greenhouse.yaml",
                           "output": "src/generated/greenhouse"}}}}, indent=2),
        "src/water.ts": """
            import * as greenhouse from './generated/greenhouse';
            import { local } from './local';

            export const water = () => greenhouse.waterPlant({ id: 2 });
            export const other = () => local();
            """,
        "src/local.ts": "export const local = () => 1;\n",
    })  # fmt: skip
    [(name, attrs)] = _ops(facts).items()
    assert name == "waterPlant"
    assert attrs["generated_from"] == "spec/greenhouse.yaml"
    assert attrs["generator_config"].startswith("openapitools.json:")
