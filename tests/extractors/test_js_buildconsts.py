"""Build-time constants: the value a bundler writes for a token (`replace`, DefinePlugin,
Vite `define`) is a `setting` at the line of the build config, naming the config key of the
code that holds the token and the env vars the value reads."""

from __future__ import annotations

from jsrepo import extract

ROLLUP = """
    import replace from '@rollup/plugin-replace';

    export default {
      input: 'index.html',
      plugins: [
        replace({
          include: ['src/settings.js'],
          __seed_api__: '/seed-api', // same origin in production
          __flavour__: process.env.SEED_FLAVOUR || 'plain',
        }),
      ],
    };
    """

DEV = """
    import rollupReplace from '@rollup/plugin-replace';
    import { fromRollup } from '@web/dev-server-rollup';

    const replace = fromRollup(rollupReplace);

    export default {
      plugins: [replace({ values: { __seed_api__: (process.env.SEED_HOST || 'http://localhost:9000') + '/seed-api' } })],
    };
    """

WEBPACK = """
    const webpack = require('webpack');

    module.exports = {
      plugins: [new webpack.DefinePlugin({ 'process.env.SEED_MODE': JSON.stringify('greenhouse') })],
    };
    """

VITE = """
    import { defineConfig } from 'vite';

    export default defineConfig({
      define: { __SEED_BUILD__: JSON.stringify('nightly') },
    });
    """

SETTINGS = """
    export const getSettings = () => ({
      SEED_API: '__seed_api__',
      FLAVOUR: '__flavour__',
    });
    """


def test_replaced_tokens_are_settings_at_the_build_config_line(tmp_path):
    f = extract(
        tmp_path,
        {
            "rollup.config.mjs": ROLLUP,
            "dev-server.config.mjs": DEV,
            "webpack.config.js": WEBPACK,
            "vite.config.ts": VITE,
            "src/settings.js": SETTINGS,
        },
    )
    found = {(n.file, n.line, n.name): n.attrs for n in f.raw.nodes if n.kind == "setting"}
    prod = found[("rollup.config.mjs", 8, "__seed_api__")]
    assert (prod["value"], prod["source"]) == ("/seed-api", "rollup replace")
    assert (prod["refers_to"], prod["used_at"]) == ("SEED_API", "src/settings.js:2")
    flavour = found[("rollup.config.mjs", 9, "__flavour__")]
    assert flavour["value"] == "process.env.SEED_FLAVOUR || 'plain'"
    assert flavour["env_vars"] == ["SEED_FLAVOUR"]
    assert ("rollup.config.mjs", 7, "include") not in found
    dev = found[("dev-server.config.mjs", 7, "__seed_api__")]
    assert dev["env_vars"] == ["SEED_HOST"] and dev["refers_to"] == "SEED_API"
    mode = found[("webpack.config.js", 4, "process.env.SEED_MODE")]
    assert (mode["value"], mode["refers_to"]) == ("greenhouse", "SEED_MODE")
    assert found[("vite.config.ts", 4, "__SEED_BUILD__")]["value"] == "nightly"
    declares = f.edges("DECLARES")
    assert ("code_file:rollup.config.mjs", "setting:rollup.config.mjs:8:__seed_api__") in declares


def test_a_replace_call_of_another_package_is_no_setting(tmp_path):
    other = ROLLUP.replace("@rollup/plugin-replace", "./local-replace")
    f = extract(tmp_path, {"rollup.config.mjs": other, "src/settings.js": SETTINGS})
    assert not [n for n in f.raw.nodes if n.kind == "setting"]
