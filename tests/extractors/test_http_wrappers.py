"""Wrapper summaries followed to the concrete call site: object-literal API modules over a
superagent/fetch helper, wrappers of wrappers, config bases read by destructuring, and
callees chosen at run time (unresolved, naming the branches and what decides), and request
functions handed around by name and called as a prop (unresolved, naming the candidates)."""

from __future__ import annotations

from jsrepo import extract

AGENT = {
    "src/agent.js": """
        import promised from 'superagent-promise';
        import rawAgent from 'superagent';

        const agent = promised(rawAgent, global.Promise);
        const SCHOOL_API = 'https://api.school.example/v2';

        const http = {
          get: path =>
            agent.get(`${SCHOOL_API}${path}`).then(r => r.body),
          del: path =>
            agent.del(`${SCHOOL_API}${path}`).then(r => r.body),
          send: (path, body) =>
            agent.post(`${SCHOOL_API}${path}`, body).then(r => r.body),
        };

        const Lessons = {
          one: id => http.get(`/lessons/${id}`),
          drop: id => http.del(`/lessons/${id}`),
          enrol: (id, who) => http.send(`/lessons/${id}/pupils`, { who }),
          recent: () => http.get('/lessons?sort=new'),
        };

        export default { Lessons };
        """,
    "src/pages/Home.js": """
        import api from '../agent';

        export function load(signedIn) {
          const pick = signedIn ? api.Lessons.recent : api.Lessons.one;
          return pick();
        }
        """,
}

PROPS = {
    **AGENT,
    "src/pages/Tabs.js": """
        import api from '../agent';

        const mapDispatch = dispatch => ({
          onPick: (tab, loader, first) => dispatch({ type: 'PICK', tab, loader, first }),
        });

        export const Tabs = props => (
          <button onClick={() => props.onPick('new', api.Lessons.recent, api.Lessons.recent())} />
        );
        """,
    "src/pages/More.js": """
        export const More = props => {
          const next = page => props.loader(page);
          return <a onClick={() => next(2)}>more</a>;
        };
        """,
}

CONFIG = {
    "src/config.js": """
        export const settings = () => ({
          BOOKS_URL: '__books_url__',
          FLAVOUR: 'plain',
        });
        """,
    "src/books.js": """
        import { settings } from './config.js';

        const readApi = async (tail) => {
          const { BOOKS_URL } = settings();
          const url = `${BOOKS_URL}/${tail}`;
          const res = await fetch(url, { method: 'GET' });
          return res.json();
        };

        const wrapped = (tail) => readApi(`v1/${tail}`);

        export const shelf = (shelfId) => wrapped(`shelves/${shelfId}`);

        export const lend = async (bookId) => {
          const { BOOKS_URL } = settings();
          await fetch(`${BOOKS_URL}/books/${bookId}/loans`, { method: 'POST' });
        };

        export function byName(name) {
          return readApi(name);
        }
        """,
}

LOOKUP = {
    "src/lib/run.js": """
        export function runQuery(doc) {
          return async () => (await fetch('/api/graph', { method: 'POST', body: doc })).json();
        }
        """,
    "src/lib/hooks.js": """
        import { runQuery } from './run';

        export const useCourse = () => null;
        useCourse.loader = (vars) => runQuery(`course ${vars.id}`);
        useCourse.key = (vars) => ['course', vars.id];

        export const usePupil = () => null;
        usePupil.loader = (vars) => runQuery(`pupil ${vars.id}`);
        usePupil.key = (vars) => ['pupil', vars.id];
        """,
    "src/lib/table.js": """
        import { useCourse, usePupil } from './hooks';

        export const loaders = { Course: useCourse, Pupil: usePupil };
        """,
    "src/lib/prefetch.js": """
        import { loaders } from './table';

        export function prefetch(item) {
          const entry = loaders[item.kind];
          const key = entry.key({ id: item.id });
          return [key, entry.loader({ id: item.id })];
        }
        """,
}


def calls_at(f) -> dict[tuple[str, int], list]:
    out: dict[tuple[str, int], list] = {}
    for n in f.raw.nodes:
        if n.kind == "http_call":
            out.setdefault((n.file, n.line), []).append(n)
    return out


def test_object_literal_api_over_a_superagent_helper(tmp_path):
    f = extract(tmp_path, AGENT)
    calls = calls_at(f)
    [one] = calls[("src/agent.js", 17)]
    assert one.name == "GET https://api.school.example/v2/lessons/{id}"
    assert one.attrs["client"] == "superagent"
    assert one.attrs["hops"] == ["src/agent.js:9"]
    assert (one.attrs["base"], one.attrs["path"]) == (
        "https://api.school.example/v2",
        "/lessons/{id}",
    )
    assert one.attrs["base_name"] == "SCHOOL_API"
    assert calls[("src/agent.js", 18)][0].name.startswith("DELETE ")
    enrol = calls[("src/agent.js", 19)][0]
    assert (enrol.attrs["method"], enrol.attrs["hops"]) == ("POST", ["src/agent.js:13"])
    assert calls[("src/agent.js", 20)][0].attrs["path"] == "/lessons?sort=new"
    # the helper's own lines are hops, never call sites
    assert not [k for k in calls if k[1] in (9, 11, 13)]
    assert {"hosts"} == {r.table for r in f.catalog}


def test_callee_chosen_at_run_time_is_unresolved_with_both_names(tmp_path):
    f = extract(tmp_path, AGENT)
    [row] = [u for u in f.unresolved if u.file == "src/pages/Home.js"]
    assert row.line == 5
    assert "api.Lessons.recent or api.Lessons.one" in row.reason
    assert "signedIn" in row.reason
    # each branch already has its concrete call site in agent.js: no candidates here
    assert not [k for k in calls_at(f) if k[0] == "src/pages/Home.js"]


def test_destructured_config_base_and_wrappers_of_wrappers(tmp_path):
    f = extract(tmp_path, CONFIG)
    calls = calls_at(f)
    [shelf] = calls[("src/books.js", 12)]
    assert shelf.name == "GET {BOOKS_URL}/v1/shelves/{shelfId}"
    assert shelf.attrs["env_var"] == "BOOKS_URL"
    assert shelf.attrs["hops"] == ["src/books.js:10", "src/books.js:6"]
    [lend] = calls[("src/books.js", 16)]
    assert lend.name == "POST {BOOKS_URL}/books/{bookId}/loans"
    # a wrapper whose path is its own parameter, called by nobody: unresolved, not a call
    assert ("src/books.js", 20) not in calls
    [unused] = [u for u in f.unresolved if (u.file, u.line) == ("src/books.js", 20)]
    assert "byName, which nothing in the component calls" in unused.reason


def test_function_picked_from_a_map_by_a_runtime_key(tmp_path):
    f = extract(tmp_path, LOOKUP)
    rows = [u for u in f.unresolved if u.file == "src/lib/prefetch.js"]
    assert [r.line for r in rows] == [6]  # entry.loader(...) requests; entry.key(...) does not
    assert "loaders by `item.kind`" in rows[0].reason
    assert "useCourse, usePupil" in rows[0].reason


def test_request_function_passed_by_name_and_called_as_a_prop(tmp_path):
    f = extract(tmp_path, PROPS)
    [row] = [u for u in f.unresolved if u.file == "src/pages/More.js"]
    assert row.line == 2
    assert "passed as `loader`" in row.reason
    assert "api.Lessons.recent (src/pages/Tabs.js:8)" in row.reason
