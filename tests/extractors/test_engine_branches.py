"""The value engine reads what real code does with its values before a request: a name
reassigned from itself (`path = path.replace(…)`), a branch that cannot run for the values
at hand (`if host is None: …`, `if (!base) return DEFAULT`), a bare tuple returned and
spread into a call (`call(*params)`), a property's setter nobody uses, and an object made
without arguments (its defaults apply). Each gives the one URL the code requests, not a
hole or an alternative that cannot happen."""

from __future__ import annotations

from jsrepo import extract

PYTHON = {
    "requirements.txt": "requests\n",
    "ferry/settings.py": """
        import os


        class Settings:
            def __init__(self, host=None):
                self._root = "http://localhost:7100" if host is None else host
                self.mode = None

            @property
            def root(self):
                return self._root

            @root.setter
            def root(self, value):
                self._root = value
        """,
    "ferry/client.py": """
        import os

        import requests

        from ferry.settings import Settings


        def fill(path, values=None):
            if values:
                for key, value in values.items():
                    path = path.replace("{%s}" % key, str(value))
            return path


        def prepare(method, path, host=None):
            if host is None:
                url = Settings(os.environ["FERRY_API"]).root + fill(path)
            else:
                url = host + path
            return method, url


        def send(method, url):
            return requests.request(method, url)


        def crossing(crossing_id):
            params = prepare("GET", "/crossings/{crossingId}")
            return send(*params)


        def timetable():
            return requests.get(Settings().root + "/timetable")


        def route(slug):
            trimmed = slug
            trimmed = trimmed.strip()
            return requests.get(Settings().root + "/routes/" + trimmed)
        """,
}

JS = {
    "package.json": '{"dependencies": {"axios": "^1.0.0"}}',
    "src/harbour.js": """
        import axios from "axios";

        function baseOf(region) {
          if (region == null) return "https://harbour.example.test";
          return `https://${region}.harbour.example.test`;
        }

        export function berths(options) {
          let base = baseOf(null);
          if (options == null) {
            options = { path: "/berths" };
          }
          return axios.get(base + options.path);
        }

        export const moorings = () => berths({ path: "/moorings" });
        export const docks = () => berths({ path: "/docks" });
        """,
    "src/nets.js": """
        import axios from "axios";

        const BASE = "https://nets.example.test";

        function send(method, path) {
          if (method === "GET") return axios.get(BASE + path);
          return axios.post(BASE + path);
        }

        export const list = () => send("GET", "/nets");
        export const mend = () => send("POST", "/nets/mended");
        """,
}


def _calls(f) -> dict[tuple[str, int], list[str]]:
    out: dict[tuple[str, int], list[str]] = {}
    for node in f.raw.nodes:
        if node.kind == "http_call":
            out.setdefault((node.file, node.line), []).append(node.name)
    return {k: sorted(v) for k, v in out.items()}


def test_python_values_follow_the_branches_that_run(tmp_path):
    f = extract(tmp_path, PYTHON)
    calls = _calls(f)
    # a tuple returned bare and spread into the sending function; the host branch decided
    # by the default; the path template kept through its own reassignment
    assert calls[("ferry/client.py", 29)] == ["GET {FERRY_API}/crossings/{crossingId}"]
    # made without arguments: the constructor's default, not the setter's parameter
    assert calls[("ferry/client.py", 33)] == ["GET http://localhost:7100/timetable"]
    # `x = x.strip()` reads what x was before; after it, x is the stripped value alone
    assert calls[("ferry/client.py", 39)] == ["GET http://localhost:7100/routes/{slug.strip()}"]
    assert not [u for u in f.unresolved if u.kind == "http_call"]


def test_js_values_follow_the_branches_that_run(tmp_path):
    f = extract(tmp_path, JS)
    calls = _calls(f)
    # `if (region == null) return …` decides the base; a parameter defaulted only when
    # it is missing keeps what each caller passes
    assert {k: v for k, v in calls.items() if k[0] == "src/harbour.js"} == {
        ("src/harbour.js", 16): ["GET https://harbour.example.test/moorings"],
        ("src/harbour.js", 17): ["GET https://harbour.example.test/docks"],
    }
    # a wrapper that dispatches on the method it is given: each caller gets its own branch
    assert {k: v for k, v in calls.items() if k[0] == "src/nets.js"} == {
        ("src/nets.js", 10): ["GET https://nets.example.test/nets"],
        ("src/nets.js", 11): ["POST https://nets.example.test/nets/mended"],
    }


TEXT_TESTS = {
    "package.json": '{"dependencies": {"axios": "^1.0.0"}}',
    "requirements.txt": "requests\n",
    "src/kilns.js": """
        import axios from "axios";

        function api(base, path) {
          if (base.indexOf("://") !== -1) return axios.get(base + path);
          return axios.get("https://kilns.example.test" + base + path);
        }

        export const firings = () => api("https://kilns.example.test", "/firings");
        export const glazes = () => api("/v2", "/glazes");
        export const shelves = (kind) => axios.get(kind.endsWith("s") ? "/shelves" : "/shelf");
        export const stacked = () => axios.get("/kilns".endsWith("s") ? "/stacks" : "/stack");
        """,
    "locks/client.py": """
        import requests


        def fetch(base, path):
            if base.startswith("http"):
                return requests.get(base + path)
            return requests.get("http://localhost:7100" + base + path)


        def piers():
            return fetch("https://piers.example.test", "/piers")


        def gates():
            return fetch("/v2", "/gates")
        """,
}


def test_a_test_of_literal_text_decides_its_branch(tmp_path):
    """`base.startsWith(…)`, `name.indexOf(…) !== -1`, `.endsWith(…) ? … : …`: decided when
    the text and what it asks for are literals, else both alternatives stay."""
    calls = _calls(extract(tmp_path, TEXT_TESTS))
    assert {k: v for k, v in calls.items() if k[0] == "src/kilns.js"} == {
        ("src/kilns.js", 8): ["GET https://kilns.example.test/firings"],
        ("src/kilns.js", 9): ["GET https://kilns.example.test/v2/glazes"],
        ("src/kilns.js", 10): ["GET /shelf", "GET /shelves"],  # a parameter: undecided
        ("src/kilns.js", 11): ["GET /stacks"],
    }
    assert {k: v for k, v in calls.items() if k[0] == "locks/client.py"} == {
        ("locks/client.py", 11): ["GET https://piers.example.test/piers"],
        ("locks/client.py", 15): ["GET http://localhost:7100/v2/gates"],
    }


REUSED = {
    "package.json": '{"dependencies": {"axios": "^1.0.0"}}',
    "requirements.txt": "requests\n",
    "src/orchard.js": """
        import axios from "axios";

        const BASE = "https://orchard.example.test";

        export async function sync() {
          let url = `${BASE}/orchards`;
          await axios.get(url);
          url = `${BASE}/harvests`;
          await axios.post(url);
        }

        export async function pages() {
          let next = `${BASE}/pages/1`;
          while (next) {
            const res = await axios.get(next);
            next = `${BASE}/pages/2`;
          }
        }

        let endpoint = `${BASE}/crates`;
        export const later = () => axios.get(endpoint);
        endpoint = `${BASE}/boxes`;
        """,
    "orchard/sync.py": """
        import requests

        BASE = "https://orchard.example.test"


        def sync():
            url = BASE + "/orchards"
            requests.get(url)
            url = BASE + "/harvests"
            requests.post(url)
        """,
}


def test_an_assignment_written_after_a_read_is_not_its_value(tmp_path):
    """A variable reused for a second request: each request reads the value assigned before
    it. A loop's next turn and a closure called later still see the later assignment."""
    calls = _calls(extract(tmp_path, REUSED))
    base = "https://orchard.example.test"
    assert calls[("src/orchard.js", 7)] == [f"GET {base}/orchards"]
    assert calls[("src/orchard.js", 9)] == [f"POST {base}/harvests"]
    assert calls[("src/orchard.js", 15)] == [f"GET {base}/pages/1", f"GET {base}/pages/2"]
    assert calls[("src/orchard.js", 21)] == [f"GET {base}/boxes", f"GET {base}/crates"]
    assert calls[("orchard/sync.py", 8)] == [f"GET {base}/orchards"]
    assert calls[("orchard/sync.py", 10)] == [f"POST {base}/harvests"]
