"""Express mount trees as real apps write them: loops over route tables, versioned mounts,
chained and exported routers, CommonJS index files, handler wrappers and service calls."""

from __future__ import annotations

from jsrepo import extract

SHOP = {
    "src/server.js": """
        const express = require('express');
        const cors = require('cors');
        const limits = require('./guards/limits');
        const v2 = require('./api/v2');
        const { onError } = require('./guards/errors');

        const server = express();
        server.use(cors());
        if (process.env.STRICT) {
          server.use('/v2/orders', limits.slowDown);
        }
        server.use(express.json());
        server.use('/v2', v2);
        server.use(onError);
        module.exports = server;
        """,
    "src/guards/limits.js": """
        const slowDown = (req, res, next) => next();
        module.exports = { slowDown };
        """,
    "src/guards/errors.js": "exports.onError = (err, req, res, next) => res.end();\n",
    "src/guards/role.js": """
        const role = (...names) => (req, res, next) => next();
        module.exports = role;
        """,
    "src/guards/check.js": "module.exports = (shape) => (req, res, next) => next();\n",
    "src/api/v2/index.js": """
        const express = require('express');
        const orderRoutes = require('./orders');
        const itemRoutes = require('./items');

        const router = express.Router();
        const table = [
          { prefix: '/orders', routes: orderRoutes },
          { prefix: '/items', routes: itemRoutes },
        ];
        table.forEach((entry) => {
          router.use(entry.prefix, entry.routes);
        });
        module.exports = router;
        """,
    "src/api/v2/orders.js": """
        const express = require('express');
        const role = require('../../guards/role');
        const check = require('../../guards/check');
        const { orderHandlers } = require('../../handlers');

        const router = express.Router();
        router
          .route('/')
          .get(role('readOrders'), orderHandlers.list)
          .post(role('writeOrders'), check({ sku: 1 }), orderHandlers.place);
        router.get('/:orderId', check({ id: 1 }), orderHandlers.one);
        module.exports = router;
        """,
    "src/api/v2/items.js": """
        const express = require('express');
        const router = express.Router();
        router.get('/', (req, res) => res.json([]));
        module.exports = router;
        """,
    "src/handlers/index.js": "module.exports.orderHandlers = require('./orders');\n",
    "src/handlers/orders.js": """
        const guarded = require('../lib/guarded');
        const { orderStore } = require('../stores');

        const list = guarded(async (req, res) => {
          res.json(await orderStore.findMany(req.query));
        });
        const place = guarded(async (req, res) => {
          const order = await orderStore.insert(req.body);
          res.status(201).json(order);
        });
        const one = guarded(async (req, res) => {
          res.json(await orderStore.findMany({ id: req.params.orderId }));
        });
        module.exports = { list, place, one };
        """,
    "src/lib/guarded.js": "module.exports = (fn) => (req, res, next) => fn(req, res).catch(next);\n",
    "src/stores/index.js": "module.exports.orderStore = require('./order.store');\n",
    "src/stores/order.store.js": """
        const findMany = async (filter) => [];
        const insert = async (doc) => doc;
        module.exports = { findMany, insert };
        """,
}


def test_loop_mounts_versioned_prefix_and_chained_routes(tmp_path):
    f = extract(tmp_path, SHOP)
    routes = f.kind("route")
    assert set(routes) == {
        "GET /v2/orders",
        "POST /v2/orders",
        "GET /v2/orders/:orderId",
        "GET /v2/items",
    }
    # a chained `.route('/').get(...).post(...)` route sits on its own method's line
    assert f.where("route:GET /v2/orders") == "src/api/v2/orders.js:9"
    assert f.where("route:POST /v2/orders") == "src/api/v2/orders.js:10"
    to = {s: d for (s, d) in f.edges("ROUTES_TO")}
    assert to["route:POST /v2/orders"] == "symbol:src/handlers/orders.js#place"
    assert f.where(to["route:POST /v2/orders"]) == "src/handlers/orders.js:7"


def test_middleware_chain_keeps_order_scope_and_usage_lines(tmp_path):
    f = extract(tmp_path, SHOP)
    assert f.chain("POST /v2/orders") == [
        (1, "cors", "src/server.js:8"),
        (2, "limits.slowDown", "src/server.js:10"),
        (3, "express.json", "src/server.js:12"),
        (4, "role", "src/api/v2/orders.js:10"),
        (5, "check", "src/api/v2/orders.js:10"),
    ]  # onError is registered after the mount: it is not in front of any route
    assert f.chain("GET /v2/items") == [
        (1, "cors", "src/server.js:8"),
        (2, "express.json", "src/server.js:12"),
    ]  # the limiter is scoped to /v2/orders
    role = f.node("middleware:src/guards/role.js#role")
    assert (role.file, role.line) == ("src/guards/role.js", 1)


def test_handlers_call_services_through_commonjs_index_files(tmp_path):
    f = extract(tmp_path, SHOP)
    calls = {
        (f.nodes[s].file, e.line, f.nodes[d].name, f.where(d))
        for (s, d), e in f.edges("CALLS_FN").items()
        if f.nodes[d].file == "src/stores/order.store.js"
    }
    assert ("src/handlers/orders.js", 8, "insert", "src/stores/order.store.js:2") in calls
    assert ("src/handlers/orders.js", 5, "findMany", "src/stores/order.store.js:1") in calls


def test_exported_router_chains_entries_loops_and_symbolic_prefixes(tmp_path):
    f = extract(tmp_path, {
        "app.ts": """
            import express from 'express';
            import api from './api';
            import { publicRoutes } from './public';
            import { docs } from './docs';

            const app = express();
            app.use(api);
            app.use(`${process.env.DOCS_AT}/docs`, docs);
            for (const group of publicRoutes) {
              app.use(group.at, group.router);
            }
            export default app;
            """,
        "api.ts": """
            import { Router } from 'express';
            import { stamp, trace } from './tools';
            import { mounts } from './mounts';

            const inner = Router().get('/ping', (req, res) => res.end());
            export default Router().use(stamp).use(trace).use('/api', inner);
            Object.entries(mounts).forEach(([at, child]) => inner.use(at, child));
            """,
        "tools.ts": """
            export const stamp = (req, res, next) => next();
            export const trace = (req, res, next) => next();
            """,
        "mounts.ts": """
            import { Router } from 'express';
            const audit = Router();
            audit.get('/log', (req, res) => res.end());
            export const mounts = { '/audit': audit };
            """,
        "public.ts": """
            import { Router } from 'express';
            const health = Router();
            health.get('/', (req, res) => res.end());
            export const publicRoutes = [{ at: '/healthz', router: health }];
            """,
        "docs.ts": """
            import { Router } from 'express';
            import ui from 'swagger-ui-express';
            export const docs = Router();
            docs.get('/', ui.setup({}));
            """,
    })  # fmt: skip
    routes = f.kind("route")
    assert set(routes) == {
        "GET /api/ping",
        "GET /api/audit/log",
        "GET /healthz",
        "GET /{DOCS_AT}/docs",
    }
    assert [n for _, n, _ in f.chain("GET /api/ping")] == ["stamp", "trace"]
    assert f.chain("GET /api/audit/log")[1] == (2, "trace", "api.ts:6")
    docs = {s: d for (s, d) in f.edges("ROUTES_TO")}["route:GET /{DOCS_AT}/docs"]
    assert (f.node(docs).name, f.where(docs)) == ("ui.setup", "docs.ts:4")
    (why,) = [u for u in f.unresolved if u.kind == "route_prefix"]
    assert (why.file, why.line) == ("app.ts", 8) and "DOCS_AT" in why.reason


def test_routers_handed_to_functions_are_followed_else_kept_with_an_unresolved_row(tmp_path):
    f = extract(tmp_path, {
        "routes.js": """
            module.exports = function register(app) {
              app.get('/status', (req, res) => res.end());
            };
            """,
        "admin.js": """
            function adminRoutes(router) {
              router.delete('/cache', (req, res) => res.end());
            }
            module.exports = { adminRoutes };
            """,
        "plugin.js": """
            module.exports = (server) => {
              server.get('/plugin', (req, res) => res.end());
            };
            """,
        "server.js": """
            const express = require('express');
            const { adminRoutes } = require('./admin');
            const app = express();
            const admin = express.Router();
            app.use(express.json());
            require('./routes')(app);
            adminRoutes(admin);
            app.use('/admin', admin);
            app.use(express.static('public'));
            """,
    })  # fmt: skip
    routes = f.kind("route")
    assert set(routes) == {"GET /status", "DELETE /admin/cache", "GET /plugin"}
    assert f.where("route:GET /status") == "routes.js:2"
    assert f.chain("GET /status") == [(1, "express.json", "server.js:5")]
    assert f.chain("DELETE /admin/cache") == [(1, "express.json", "server.js:5")]
    (why,) = [u for u in f.unresolved if u.kind == "route_mount"]  # nobody passes `server`
    assert (why.file, why.line, why.expr) == ("plugin.js", 2, "server")
    assert "not followed" in why.reason


def test_a_client_parameter_with_router_methods_is_not_a_route(tmp_path):
    f = extract(tmp_path, {
        "server.js": "const express = require('express');\nconst app = express();\n",
        "client.js": """
            module.exports = (router) => ({
              save: (payload) => router.post('/things', payload),
            });
            """,
    })  # fmt: skip
    assert f.kind("route") == {}
    assert not [u for u in f.unresolved if u.kind in {"mount", "handler"}]


def test_inline_require_mount(tmp_path):
    f = extract(tmp_path, {
        "index.js": """
            const express = require('express');
            const app = express();
            app.use('/hooks', require('./hooks'));
            """,
        "hooks.js": """
            const { Router } = require('express');
            module.exports = Router().post('/paid', (req, res) => res.end());
            """,
    })  # fmt: skip
    assert set(f.kind("route")) == {"POST /hooks/paid"}
