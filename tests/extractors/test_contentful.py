"""Contentful content types from exports and the code that queries them."""

from __future__ import annotations

import json

from test_python import facts_of, write

BLOG = {"sys": {"id": "blogPost", "type": "ContentType"}, "name": "Blog post",
        "displayField": "title", "fields": [{"id": "title", "type": "Symbol"}]}  # fmt: skip
EXPORT = {"contentTypes": [{"sys": {"id": "author", "type": "ContentType"}, "name": "Author"}]}

CLIENT = """
    import { createClient, type EntrySkeletonType } from 'contentful';

    type PostSkeleton = EntrySkeletonType<{ title: string }, 'blogPost'>;
    const client = createClient({ space: 's', accessToken: 't' });

    export async function posts() {
      const res = await client.getEntries<PostSkeleton>({
        content_type: 'blogPost',
        limit: 10,
      });
      return res.items;
    }

    export async function post(id: string) {
      return client.getEntry<PostSkeleton>(id);
    }

    export async function authors() {
      return client.getEntries({ content_type: "author" });
    }

    const QUERY = `query { pageCollection(limit: 5) { items { title } } }`;
    export async function pages() {
      return fetch('https://graphql.contentful.com/x', { method: 'POST', body: QUERY });
    }
    """


def test_content_types_and_queries_become_symbols_and_calls(tmp_path):
    root = write(tmp_path, {
        "contentful/blogPost.json": json.dumps(BLOG, indent=2),
        "export/space.json": json.dumps(EXPORT),
        "lib/contentful.ts": CLIENT,
        "package.json": '{"dependencies": {"contentful": "^10.0.0"}}',
    })  # fmt: skip
    facts, nodes, edges = facts_of(root, project="shop", component="cms")
    blog = nodes["contentful:blogPost"]
    assert blog.kind == "symbol" and blog.attrs["contentful_content_type"] is True
    assert blog.file == "contentful/blogPost.json" and blog.attrs["defined"] is True
    assert blog.attrs["fields"] == [{"id": "title", "type": "Symbol"}]
    assert nodes["contentful:author"].file == "export/space.json"
    page = nodes["contentful:page"]
    assert page.attrs["defined"] is False and page.file == "lib/contentful.ts"
    queries = {
        (s, d): e.attrs["contentful_query"] for (s, d, t), e in edges.items() if t == "CALLS_FN"
        and d.startswith("contentful:")
    }  # fmt: skip
    assert queries == {
        ("lib/contentful.ts#posts", "contentful:blogPost"): "getEntries",
        ("lib/contentful.ts#post", "contentful:blogPost"): "getEntry",
        ("lib/contentful.ts#authors", "contentful:author"): "getEntries",
        ("lib/contentful.ts", "contentful:page"): "graphql",
    }
    assert edges[("lib/contentful.ts#posts", "contentful:blogPost", "CALLS_FN")].line == 8


def test_python_content_type_query_and_no_false_positive_without_contentful(tmp_path):
    write(tmp_path / "a", {"cms.py": (
        "import contentful\nclient = contentful.Client('s', 't')\n\n"
        "def recipes():\n    return client.entries({'content_type': 'recipe'})\n"
    )})  # fmt: skip
    _, nodes, edges = facts_of(tmp_path / "a", component="py")
    assert ("cms.py#recipes", "contentful:recipe", "CALLS_FN") in edges
    write(tmp_path / "b", {"web.py": "def send(r):\n    r.headers = {'content_type': 'json'}\n"})
    facts, _, _ = facts_of(tmp_path / "b", component="web")
    assert not [n for n in facts.nodes if n.attrs.get("contentful_content_type")]
