"""An API module of object literals (`export default { Seeds, Beds }`, each member an arrow
calling a `requests.post(...)` wrapper): a component's `api.Seeds.sow(...)` is a CALLS_FN edge
at its own line to the member, so a trace goes component → member → http_call; the base URL
constant is a `setting` at its own line and the host is catalogued where it is written."""

from __future__ import annotations

from jsrepo import extract

AGENT = """
    import superagent from 'superagent';

    const GREEN_ROOT = 'https://greenhouse.example/api';

    const requests = {
      get: url => superagent.get(`${GREEN_ROOT}${url}`).then(r => r.body),
      post: (url, body) => superagent.post(`${GREEN_ROOT}${url}`, body).then(r => r.body),
    };

    const Seeds = {
      list: () => requests.get('/seeds'),
      sow: seed =>
        requests.post('/seeds', { seed }),
    };

    const Beds = { water: id => requests.post(`/beds/${id}/water`) };

    export default { Seeds, Beds, Plots: Beds };
    """

BUTTON = """
    import api from '../api';

    export function SowButton(props) {
      const sow = () => {
        const pending = api.Seeds.sow(props.seed);
        return pending;
      };
      return sow;
    }

    export function WaterAll() {
      api.Plots.water(3);
      api.Missing.thing();
    }
    """

FILES = {"src/api.js": AGENT, "src/components/SowButton.js": BUTTON}


def test_component_calls_reach_the_members_of_an_object_literal_api(tmp_path):
    f = extract(tmp_path, FILES)
    calls = f.edges("CALLS_FN")
    sow = calls[("symbol:src/components/SowButton.js#SowButton", "symbol:src/api.js#Seeds.sow")]
    assert (sow.file, sow.line) == ("src/components/SowButton.js", 5)
    # a property whose value names another object (`Plots: Beds`) is followed too
    water = calls[("symbol:src/components/SowButton.js#WaterAll", "symbol:src/api.js#Beds.water")]
    assert water.line == 12
    assert not [k for k in calls if "Missing" in k[1]]
    # the member's own call is the http_call (the wrapper's caller), reached from the member
    posts = {n.line: n for n in f.raw.nodes if n.kind == "http_call" and n.file == "src/api.js"}
    assert posts[13].name == "POST https://greenhouse.example/api/seeds"
    http = f.edges("CALLS_HTTP")
    assert ("symbol:src/api.js#Seeds.sow", posts[13].id.split(":", 1)[1]) in http


def test_the_base_url_constant_is_a_setting_its_calls_point_at(tmp_path):
    f = extract(tmp_path, FILES)
    (setting,) = [n for n in f.raw.nodes if n.kind == "setting"]
    assert (setting.name, setting.file, setting.line) == ("GREEN_ROOT", "src/api.js", 3)
    assert setting.attrs["value"] == "https://greenhouse.example/api"
    assert setting.attrs["refers_to"] == "greenhouse.example"
    assert ("code_file:src/api.js", setting.id.split(":", 1)[1]) in f.edges("DECLARES")
    based = [n for n in f.raw.nodes if n.kind == "http_call"]
    assert based and all(n.attrs["base_setting"] == setting.id for n in based)
    # the host literal is written at the constant: call sites keep their own rows too
    hosts = {(r.name, r.file, r.line) for r in f.catalog if r.table == "hosts"}
    assert ("greenhouse.example", "src/api.js", 13) in hosts
    assert ("greenhouse.example", "src/api.js", 3) in hosts


def test_a_base_constant_inside_a_longer_client_base_keeps_its_own_value(tmp_path):
    files = {
        "src/settings.ts": "export const SETTINGS = {\n  HOST: process.env.SEED_HOST,\n};\n",
        "src/client.ts": """
            import axios from 'axios';
            import { SETTINGS } from './settings';

            const client = axios.create({ baseURL: `${SETTINGS.HOST}/v2` });

            export const listBeds = () => client.get('/beds');
            """,
    }
    f = extract(tmp_path, files)
    (setting,) = [n for n in f.raw.nodes if n.kind == "setting"]
    assert (setting.name, setting.file, setting.line) == ("SETTINGS.HOST", "src/settings.ts", 2)
    assert (setting.attrs["value"], setting.attrs["refers_to"]) == ("{SEED_HOST}", "SEED_HOST")
    (call,) = [n for n in f.raw.nodes if n.kind == "http_call"]
    assert call.attrs["url_template"] == "{SEED_HOST}/v2/beds"
    assert call.attrs["base_setting"] == setting.id
