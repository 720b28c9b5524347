"""Next.js API routes as handlers write them: the methods a pages handler accepts, a default
export that is an expression, basePath, and where a route gets its middleware."""

from __future__ import annotations

from jsrepo import extract

SITE = {
    "next.config.mjs": "export default {\n  basePath: '/shop',\n  reactStrictMode: true,\n}\n",
    "pages/api/orders.ts": """
        export default async function orders(req, res) {
          if (req.method !== 'POST') {
            return res.status(405).end()
          }
          res.status(201).json({})
        }
        """,
    "pages/api/cart.ts": """
        export default function cart(req, res) {
          switch (req.method) {
            case 'GET':
              return res.json([])
            case 'DELETE':
              return res.status(204).end()
          }
        }
        """,
    "pages/api/ping.js": "export default function ping(req, res) {\n  res.end('pong')\n}\n",
    "pages/api/session/[...all].ts": """
        import SessionKit from "session-kit"
        import { options } from "../../../lib/session"

        export default SessionKit(options)
        """,
    "lib/session.ts": "export const options = { secret: 'x' }\n",
    "app/api/stock/route.ts": "export async function GET() {\n  return Response.json([])\n}\n",
    "middleware.ts": """
        export function middleware(req) {
          return undefined
        }

        export const config = {
          matcher: ['/api/stock/:path*'],
        }
        """,
}


def test_methods_come_from_the_handler_and_paths_from_base_path(tmp_path):
    f = extract(tmp_path, SITE)
    assert set(f.kind("route")) == {
        "POST /shop/api/orders",
        "GET /shop/api/cart",
        "DELETE /shop/api/cart",
        "ANY /shop/api/ping",
        "ANY /shop/api/session/[...all]",
        "GET /shop/api/stock",
    }
    orders = f.kind("route")["POST /shop/api/orders"]
    assert (orders.file, orders.line) == ("pages/api/orders.ts", 1)
    assert orders.attrs["method_guard_at"] == "pages/api/orders.ts:2"
    assert "method_guard" not in f.kind("route")["ANY /shop/api/ping"].attrs
    base = f.node("setting:next.config.mjs:2:basePath")
    assert base.attrs["value"] == "/shop"


def test_a_default_export_expression_is_the_handler(tmp_path):
    f = extract(tmp_path, SITE)
    to = {s: d for (s, d) in f.edges("ROUTES_TO")}
    handler = to["route:ANY /shop/api/session/[...all]"]
    node = f.node(handler)
    assert (node.name, node.file, node.line) == (
        "SessionKit",
        "pages/api/session/[...all].ts",
        4,
    )
    route = f.kind("route")["ANY /shop/api/session/[...all]"]
    assert route.line == 4


def test_middleware_applies_where_its_matcher_says_at_the_matcher_line(tmp_path):
    f = extract(tmp_path, SITE)
    uses = {(s, f"{e.file}:{e.line}") for (s, d), e in f.edges("USES_MIDDLEWARE").items()}
    assert uses == {("route:GET /shop/api/stock", "middleware.ts:6")}
