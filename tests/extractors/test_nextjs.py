"""Next.js file-system routes: app router, pages router, groups, dynamic segments, middleware."""

from __future__ import annotations

from jsrepo import extract

REPO = {
    "package.json": '{"dependencies": {"next": "14.2.0", "react": "18.3.0"}}',
    "src/app/page.tsx": "export default function HomePage() {\n  return <main />;\n}\n",
    "src/app/(marketing)/about/page.tsx": "const About = () => <p />;\nexport default About;\n",
    "src/app/faq/[slug]/page.tsx": "export default async function FaqPage({ params }) {\n  return params.slug;\n}\n",
    "src/app/docs/[[...path]]/page.tsx": "export default function Docs() { return null; }\n",
    "src/app/@modal/login/page.tsx": "export default function Login() { return null; }\n",
    "src/app/_components/page.tsx": "export default function NotARoute() { return null; }\n",
    "src/app/api/revalidate/route.ts": """
        import { NextResponse } from 'next/server';

        export async function POST(request: Request) {
          return NextResponse.json({ ok: true });
        }

        export const GET = async () => NextResponse.json({ ok: true });
        export const dynamic = 'force-dynamic';
        """,
    "src/app/layout.tsx": "export default function Layout({ children }) { return children; }\n",
    "src/middleware.ts": """
        import { NextResponse } from 'next/server';

        export function middleware() {
          return NextResponse.next();
        }

        export const config = { matcher: ['/api/:path*'] };
        """,
}


def test_app_router_pages_and_route_handlers(tmp_path):
    f = extract(tmp_path, REPO)
    routes = f.kind("route")
    assert set(routes) == {
        "GET /",
        "GET /about",
        "GET /faq/[slug]",
        "GET /docs/[[...path]]",
        "GET /login",
        "POST /api/revalidate",
        "GET /api/revalidate",
    }
    post = routes["POST /api/revalidate"]
    assert (post.file, post.line) == ("src/app/api/revalidate/route.ts", 3)
    assert post.attrs == {
        "method": "POST",
        "path": "/api/revalidate",
        "framework": "nextjs",
        "router": "app",
        "route_kind": "api",
        "segments": [{"kind": "lit", "text": "api"}, {"kind": "lit", "text": "revalidate"}],
    }
    to = {s: d for (s, d) in f.edges("ROUTES_TO")}
    assert to["route:GET /faq/[slug]"] == "symbol:src/app/faq/[slug]/page.tsx#FaqPage"
    assert to["route:GET /about"] == "symbol:src/app/(marketing)/about/page.tsx#About"
    assert to["route:GET /api/revalidate"] == "symbol:src/app/api/revalidate/route.ts#GET"
    mw = {s for (s, d) in f.edges("USES_MIDDLEWARE")}
    assert mw == {"route:POST /api/revalidate", "route:GET /api/revalidate"}
    assert f.node("middleware:src/middleware.ts#middleware").line == 3


def test_pages_router_and_api_routes(tmp_path):
    f = extract(tmp_path, {
        "next.config.js": "module.exports = {};\n",
        "pages/index.tsx": "export default function Home() { return null; }\n",
        "pages/blog/[slug].tsx": "export const getStaticProps = async () => ({ props: {} });\nexport default function Post() { return null; }\n",
        "pages/_app.tsx": "export default function App() { return null; }\n",
        "pages/api/preview.ts": "export default async function handler(req, res) {\n  res.end();\n}\n",
        "pages/api/users/index.js": "module.exports = function users(req, res) {};\n",
    })  # fmt: skip
    routes = f.kind("route")
    assert set(routes) == {"GET /", "GET /blog/[slug]", "ANY /api/preview", "ANY /api/users"}
    preview = routes["ANY /api/preview"]
    assert (preview.file, preview.line, preview.attrs["router"]) == (
        "pages/api/preview.ts",
        1,
        "pages",
    )
    to = {s: d for (s, d) in f.edges("ROUTES_TO")}
    assert to["route:GET /blog/[slug]"] == "symbol:pages/blog/[slug].tsx#Post"


def test_no_routes_without_next(tmp_path):
    f = extract(
        tmp_path,
        {
            "package.json": '{"dependencies": {"vite": "5"}}',
            "src/app/page.tsx": "export default function P() {}\n",
        },
    )
    assert f.kind("route") == {}
