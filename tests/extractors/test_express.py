"""Express: full mounted paths, handlers, ordered middleware, catalog rows."""

from __future__ import annotations

from jsrepo import extract

API = {
    "src/index.ts": """
        import express from 'express';
        import cors from 'cors';
        import helmet from 'helmet';
        import { apiRouter } from './routes';

        export const app = express();

        app.use(helmet());
        app.use(cors({ origin: ['https://a.example'] }));
        app.use('/api', apiRouter);
        app.use(express.json());
        """,
    "src/routes/index.ts": """
        import express from 'express';
        import { contactRouter } from './contact';
        import { HEALTH_PATH } from './paths';

        export const apiRouter = express.Router();

        apiRouter.get(HEALTH_PATH, (_req, res) => {
          res.json({ status: 'ok' });
        });

        apiRouter.use('/jp', contactRouter);
        """,
    "src/routes/paths.ts": "export const CONTACT_PATH = '/contact';\nexport const HEALTH_PATH = `/health`;\n",
    "src/routes/contact.ts": """
        import { Router } from 'express';
        import { contactController } from '../controllers/contact';
        import { rateLimit } from '../middleware/rate-limit';
        import { validateContact } from '../validators/contact';
        import { CONTACT_PATH } from './paths';

        export const contactRouter = Router();
        const ITEM = '/items/:id';

        contactRouter.post(CONTACT_PATH, rateLimit, validateContact, contactController.sendContactEmailJp);
        contactRouter.route(ITEM).get(contactController.show).delete([rateLimit], contactController.remove);
        contactRouter.all('/any', contactController.show);
        contactRouter.get(pathFromSomewhere(), contactController.show);
        """,
    "src/controllers/contact.ts": """
        export const contactController = {
          async sendContactEmailJp(req, res) {
            res.status(201).end();
          },
          show(req, res) {},
          remove(req, res) {},
        };
        """,
    "src/middleware/rate-limit.ts": """
        import expressRateLimit from 'express-rate-limit';

        export const rateLimit = expressRateLimit({ windowMs: 1000, limit: 5 });
        """,
    "src/validators/contact.ts": """
        export function validateContact(req, res, next) {
          next();
        }
        """,
}


def test_routes_get_every_mount_prefix_and_their_handler(tmp_path):
    f = extract(tmp_path, API)
    routes = f.kind("route")
    assert set(routes) == {
        "GET /api/health",
        "POST /api/jp/contact",
        "GET /api/jp/items/:id",
        "DELETE /api/jp/items/:id",
        "ANY /api/jp/any",  # `.all`: any method
        "GET /api/jp/{pathFromSomewhere()}",  # a path not known statically: named by its expression
    }
    contact = routes["POST /api/jp/contact"]
    assert (contact.file, contact.line) == ("src/routes/contact.ts", 10)
    assert contact.attrs == {
        "method": "POST",
        "path": "/api/jp/contact",
        "framework": "express",
        "segments": [
            {"kind": "lit", "text": "api"},
            {"kind": "lit", "text": "jp"},
            {"kind": "lit", "text": "contact"},
        ],
        "mounts": [
            "src/index.ts:10 /api",
            "src/routes/index.ts:11 /jp",
        ],  # where each prefix is written
    }
    to = {s: d for (s, d) in f.edges("ROUTES_TO")}
    handler = to["route:POST /api/jp/contact"]
    assert handler == "symbol:src/controllers/contact.ts#contactController.sendContactEmailJp"
    assert f.where(handler) == "src/controllers/contact.ts:2"
    health = to["route:GET /api/health"]
    assert f.node(health).name == "<anonymous>" and f.where(health) == "src/routes/index.ts:7"
    (dynamic,) = [u for u in f.unresolved if u.kind == "route"]
    assert (dynamic.file, dynamic.line, dynamic.expr) == (
        "src/routes/contact.ts",
        13,
        "pathFromSomewhere()",
    )


def test_middleware_order_global_first_then_per_route(tmp_path):
    f = extract(tmp_path, API)
    chain = sorted(
        (
            e.attrs["order"],
            f.nodes[d].name,
            f"{f.nodes[d].file}:{f.nodes[d].line}",
            f"{e.file}:{e.line}",
        )
        for (s, d), e in f.edges("USES_MIDDLEWARE").items()
        if s == "route:POST /api/jp/contact"
    )
    assert chain == [
        (1, "helmet", "src/index.ts:8", "src/index.ts:8"),
        (2, "cors", "src/index.ts:9", "src/index.ts:9"),
        (3, "rateLimit", "src/middleware/rate-limit.ts:3", "src/routes/contact.ts:10"),
        (4, "validateContact", "src/validators/contact.ts:1", "src/routes/contact.ts:10"),
    ]  # express.json() is registered after the mount: it does not apply
    delete = [
        f.nodes[d].name
        for (s, d) in f.edges("USES_MIDDLEWARE")
        if s == "route:DELETE /api/jp/items/:id"
    ]
    assert sorted(delete) == ["cors", "helmet", "rateLimit"]
    rate = f.node("middleware:src/middleware/rate-limit.ts#rateLimit")
    assert rate.attrs["package"] == "express-rate-limit"
    catalog = {(r.name, r.file, r.line) for r in f.catalog if r.table == "middleware"}
    assert {
        ("helmet", "src/index.ts", 8),
        ("cors", "src/index.ts", 9),
        ("express-rate-limit", "src/middleware/rate-limit.ts", 3),
        ("express.json", "src/index.ts", 11),
    } <= catalog


def test_path_scoped_middleware_and_commonjs_app(tmp_path):
    f = extract(tmp_path, {
        "server.js": """
            const express = require('express');
            const auth = require('./auth');
            const app = express();
            const admin = express.Router();

            app.use('/admin', auth.required);
            app.get('/public', (req, res) => res.send('ok'));
            admin.get('/users', listUsers);
            app.use('/admin', admin);

            function listUsers(req, res) {}
            """,
        "auth.js": "function required(req, res, next) { next(); }\nmodule.exports = { required };\n",
    })  # fmt: skip
    routes = f.kind("route")
    assert set(routes) == {"GET /public", "GET /admin/users"}
    uses = {(s, f.nodes[d].name) for (s, d) in f.edges("USES_MIDDLEWARE")}
    assert uses == {("route:GET /admin/users", "auth.required")}
    assert f.node("middleware:auth.js#required").file == "auth.js"
    assert {d for (s, d) in f.edges("ROUTES_TO")} >= {"symbol:server.js#listUsers"}


def test_wrapped_handlers_resolve_to_the_inner_function(tmp_path):
    f = extract(tmp_path, {
        "app.ts": """
            import express from 'express';
            import { ctrl } from './ctrl';
            const app = express();
            app.get('/orders/:id', asyncHandler(ctrl.show));
            """,
        "ctrl.ts": "export const ctrl = {\n  async show(req, res) {},\n};\n",
    })  # fmt: skip
    to = {s: d for (s, d) in f.edges("ROUTES_TO")}
    assert to["route:GET /orders/:id"] == "symbol:ctrl.ts#ctrl.show"
