"""TypeScript/JavaScript: symbols, imports resolved to files, calls across files."""

from __future__ import annotations

from jsrepo import extract

REPO = {
    "tsconfig.json": """
        {
          // comments and trailing commas are allowed here
          "compilerOptions": { "baseUrl": ".", "paths": { "@/*": ["./src/*"], "~lib": ["./src/lib/index.ts"], }, },
        }
        """,
    "src/controllers/contact.ts": """
        import type { Request, Response } from 'express';
        import { zendeskService } from '../services/zendesk';
        import * as audit from '@/lib/audit';
        import { helper } from '~lib';

        export const contactController = {
          async sendContactEmailJp(req: Request, res: Response) {
            await zendeskService.createTicket(req.body);
            audit.record('contact');
            helper();
            res.status(201).end();
          },
          other: (x: number) => x,
        };
        """,
    "src/services/zendesk.ts": """
        import axios from 'axios';

        export type NewTicket = { subject: string };

        async function createTicket(ticket: NewTicket): Promise<number> {
          return format(ticket.subject).length;
        }

        function format(s: string) {
          return s.trim();
        }

        export const zendeskService = { createTicket };
        """,
    "src/lib/audit.js": """
        export function record(what) {
          return what;
        }
        """,
    "src/lib/index.ts": """
        export { helper } from './helper.js';
        export * from './more';
        """,
    "src/lib/helper.ts": "export const helper = () => 1;\n",
    "src/lib/more.ts": "export class Store {\n  load() { return this.parse(); }\n  parse() { return 1; }\n}\n",
    "src/app.ts": """
        import { Store } from './lib';
        import { missing } from './nope';
        const { thing } = require('./lib/audit');

        export default function main() {
          const store = new Store();
          return store.load();
        }
        """,
}


def test_symbols_carry_file_lines_and_exported(tmp_path):
    f = extract(tmp_path, REPO)
    method = f.node("symbol:src/controllers/contact.ts#contactController.sendContactEmailJp")
    assert (method.name, method.file, method.line, method.end_line) == (
        "contactController.sendContactEmailJp",
        "src/controllers/contact.ts",
        7,
        12,
    )
    assert method.attrs["exported"] is True
    assert f.node("symbol:src/controllers/contact.ts#contactController.other").line == 13
    assert f.node("symbol:src/services/zendesk.ts#createTicket").attrs["exported"] is False
    assert f.where("symbol:src/lib/more.ts#Store.parse") == "src/lib/more.ts:3"
    assert f.where("symbol:src/lib/helper.ts#helper") == "src/lib/helper.ts:1"
    assert "symbol:src/services/zendesk.ts#NewTicket" not in f.nodes  # types are not symbols
    defines = f.edges("DEFINES")
    assert ("code_file:src/lib/more.ts", "symbol:src/lib/more.ts#Store.load") in defines
    code_file = f.node("code_file:src/services/zendesk.ts")
    assert (code_file.file, code_file.line, code_file.attrs["packages"]) == (
        "src/services/zendesk.ts",
        1,
        ["axios"],
    )


def test_imports_resolve_relative_index_alias_and_js_extension(tmp_path):
    f = extract(tmp_path, REPO)
    imports = set(f.edges("IMPORTS"))
    assert {
        ("code_file:src/controllers/contact.ts", "code_file:src/services/zendesk.ts"),
        ("code_file:src/controllers/contact.ts", "code_file:src/lib/audit.js"),  # @/ alias
        ("code_file:src/controllers/contact.ts", "code_file:src/lib/index.ts"),  # exact path
        ("code_file:src/lib/index.ts", "code_file:src/lib/helper.ts"),  # './helper.js' → .ts
        ("code_file:src/lib/index.ts", "code_file:src/lib/more.ts"),
        ("code_file:src/app.ts", "code_file:src/lib/index.ts"),  # folder → index
        ("code_file:src/app.ts", "code_file:src/lib/audit.js"),  # require()
    } <= imports
    (missing,) = [u for u in f.unresolved if u.kind == "import"]
    assert (missing.file, missing.line, missing.expr) == ("src/app.ts", 2, "./nope")


def test_calls_resolve_through_objects_namespaces_reexports_and_instances(tmp_path):
    f = extract(tmp_path, REPO)
    calls = f.edges("CALLS_FN")
    handler = "symbol:src/controllers/contact.ts#contactController.sendContactEmailJp"
    alias = "symbol:src/services/zendesk.ts#zendeskService.createTicket"
    assert calls[(handler, alias)].line == 8
    assert f.node(alias).line == 13  # the property in `{ createTicket }`
    assert (alias, "symbol:src/services/zendesk.ts#createTicket") in calls
    assert (handler, "symbol:src/lib/audit.js#record") in calls  # namespace import member
    assert (handler, "symbol:src/lib/helper.ts#helper") in calls  # alias + re-export
    assert (
        "symbol:src/services/zendesk.ts#createTicket",
        "symbol:src/services/zendesk.ts#format",
    ) in calls
    assert ("symbol:src/lib/more.ts#Store.load", "symbol:src/lib/more.ts#Store.parse") in calls
    # `new Store()` then `store.load()` through `export *` in the barrel
    assert ("symbol:src/app.ts#main", "symbol:src/lib/more.ts#Store.load") in calls


def test_syntax_errors_keep_the_rest_and_warn_with_the_line(tmp_path):
    f = extract(tmp_path, {
        "src/broken.ts": """
            export function before() { return 1; }

            export function broken( {
              return ;;; %%% ]
            }

            export function after() { return before(); }
            """,
    })  # fmt: skip
    assert "symbol:src/broken.ts#before" in f.nodes
    assert "symbol:src/broken.ts#after" in f.nodes
    (warning,) = [p for p in f.problems if p.rule == "syntax-error"]
    assert warning.path == "src/broken.ts" and warning.severity == "warning"
    assert warning.line is not None and 3 <= warning.line <= 5


def test_non_utf8_minified_vendored_and_deeply_nested_files(tmp_path):
    nested = (
        "export function deep() {\n" + "  if (a) {\n" * 400 + "  go();\n" + "  }\n" * 400 + "}\n"
    )
    f = extract(tmp_path, {
        "src/latin1.ts": "export const caf\xe9 = 1;\nexport function ok() { return 'd\xe9j\xe0'; }\n".encode("latin-1"),
        "src/app.min.js": "function x(){}" * 10,
        "vendor/lib.ts": "export function vendored() {}\n",
        "node_modules/pkg/index.js": "export function dep() {}\n",
        "src/huge.js": "var a = 1;" * 4000,  # one 40 KB line: minified
        "src/nested.ts": nested,
        "src/go.ts": "export function go() {}\n",
    })  # fmt: skip
    assert "symbol:src/latin1.ts#ok" in f.nodes
    assert not any(
        k.startswith(("code_file:src/app.min", "code_file:vendor", "code_file:node_modules"))
        for k in f.nodes
    )
    assert "code_file:src/huge.js" not in f.nodes
    deep = f.node("symbol:src/nested.ts#deep")
    assert deep.end_line == 803


def test_huge_files_are_reported_not_parsed(tmp_path):
    f = extract(
        tmp_path,
        {"src/big.ts": "export const x = 1;\n" * 60_000, "src/ok.ts": "export const y = 2;\n"},
    )
    assert "code_file:src/ok.ts" in f.nodes and "code_file:src/big.ts" not in f.nodes
    (problem,) = [p for p in f.problems if p.path == "src/big.ts"]
    assert problem.rule == "too-large"


def test_module_level_handlers_and_calls_are_attributed(tmp_path):
    f = extract(tmp_path, {
        "src/index.js": """
            const { start } = require('./server');
            app.get('/x', (req, res) => {
              start();
            });
            [1, 2].map((n) => start(n));
            """,
        "src/server.js": "function start() {}\nmodule.exports = { start };\n",
    })  # fmt: skip
    calls = f.edges("CALLS_FN")
    assert ("symbol:src/index.js#<anonymous>@2:15", "symbol:src/server.js#start") in calls
    assert ("code_file:src/index.js", "symbol:src/server.js#start") in calls  # `.map` callback
    assert f.node("symbol:src/index.js#<anonymous>@2:15").name == "<anonymous>"


def test_very_long_member_chains_do_not_break_extraction(tmp_path):
    chain = "a" + ".b" * 3000
    f = extract(tmp_path, {"src/gen.js": f"export function gen() {{\n  return {chain}.c();\n}}\n"})
    assert f.where("symbol:src/gen.js#gen") == "src/gen.js:1"


def test_a_class_field_holding_a_function_is_a_method_its_class_binds(tmp_path):
    """React's bound handlers (`handleAdd = async (e) => {…}`): a method symbol of the class
    owning its calls, linked from the class where it is handed over (`this.handleAdd`)."""
    f = extract(tmp_path, {
        "src/Todo.jsx": """
            import React, { Component } from 'react';

            export default class Todo extends Component {
              state = { text: '' };

              handleAdd = async (event) => {
                await fetch('/api/todos', { method: 'POST' });
              };

              render() {
                return <form onSubmit={this.handleAdd} />;
              }
            }
            """,
    })  # fmt: skip
    handler = f.node("symbol:src/Todo.jsx#Todo.handleAdd")
    assert (handler.line, handler.end_line, handler.attrs["field"]) == (6, 8, True)
    assert handler.attrs["ui_handler"] is True
    assert "symbol:src/Todo.jsx#Todo.state" not in f.nodes  # a field holding data is no symbol
    http = f.edges("CALLS_HTTP")
    assert (
        "symbol:src/Todo.jsx#Todo.handleAdd",
        "http_call:POST /api/todos@src/Todo.jsx:7",
    ) in http
    bound = f.edges("CALLS_FN")[("symbol:src/Todo.jsx#Todo", "symbol:src/Todo.jsx#Todo.handleAdd")]
    assert (bound.line, bound.attrs) == (11, {"via": "bound handler"})


def test_a_function_component_names_the_handlers_its_jsx_binds(tmp_path):
    """Handlers declared in a function component's body and bound in its JSX are named on
    the component (`handlers`), while their calls stay the component's."""
    f = extract(tmp_path, {
        "src/Form.tsx": """
            import { useCallback } from 'react';

            export const Form = () => {
              const onSave = useCallback(async () => {
                await fetch('/api/save', { method: 'POST' });
              }, []);
              function onReset() {}
              const helper = () => 1;

              return <form onSubmit={onSave}><button onClick={() => onReset()} /></form>;
            };
            """,
    })  # fmt: skip
    form = f.node("symbol:src/Form.tsx#Form")
    assert form.attrs["handlers"] == {"onSave": 4, "onReset": 7}
    http = f.edges("CALLS_HTTP")
    assert ("symbol:src/Form.tsx#Form", "http_call:POST /api/save@src/Form.tsx:5") in http


def test_a_property_naming_a_method_of_another_object_is_an_alias_hop(tmp_path):
    """`{ verify: impl.verify }` reads as `{ verify }` does: callers call the property as
    written, and the hop to the function that runs stays visible."""
    f = extract(
        tmp_path,
        {
            "src/services/captcha.ts": """
                const impl = {
                  async verify(token: string) { return token.length > 0; },
                };
                export const captcha = { verify: impl.verify, count: impl.verify.length };
                """,
            "src/controllers/form.ts": """
                import { captcha } from '../services/captcha';
                export async function submit(token: string) {
                  return captcha.verify(token);
                }
                """,
        },
    )
    calls = f.edges("CALLS_FN")
    alias = "symbol:src/services/captcha.ts#captcha.verify"
    assert calls[("symbol:src/controllers/form.ts#submit", alias)].line == 3
    assert f.node(alias).line == 4
    assert calls[(alias, "symbol:src/services/captcha.ts#impl.verify")].attrs["via"] == "alias"
    assert "symbol:src/services/captcha.ts#captcha.count" not in f.nodes
