"""Outbound HTTP calls: URL templates, bases from env/constants/instances/wrappers, dynamic ones."""

from __future__ import annotations

from jsrepo import extract

WEB = {
    "tsconfig.json": '{"compilerOptions": {"baseUrl": ".", "paths": {"@/*": ["./src/*"]}}}',
    "src/lib/config.ts": "export const CONTACT_API_URL = process.env.NEXT_PUBLIC_CONTACT_API_URL ?? '';\n",
    "src/lib/api.ts": """
        import { CONTACT_API_URL } from '@/lib/config';

        const SENDGRID = 'https://api.sendgrid.com/v3/mail/send';

        export async function postContact(body: unknown) {
          return fetch(`${CONTACT_API_URL}jp/contact`, { method: 'POST', body: JSON.stringify(body) });
        }

        export async function getFaq(slug: string) {
          return fetch(`${CONTACT_API_URL}jp/faq/${encodeURIComponent(slug)}`);
        }

        export async function mail() {
          await fetch(SENDGRID, { method: 'post' });
          await fetch('/api/events/' + slug() + '/register', { method: 'POST' });
        }

        export async function anywhere(url: string) {
          return fetch(url);
        }
        """,
    "src/components/contact-form.tsx": """
        import { postContact } from '@/lib/api';

        export function ContactForm() {
          async function submit() {
            await postContact({});
          }
          return <form onSubmit={submit} />;
        }
        """,
}

SPA = {
    ".env.development": "VITE_API_URL=https://api.dev.globex.example/v1\n",
    "src/services/api.ts": """
        import axios from 'axios';

        export const http = axios.create({ baseURL: import.meta.env.VITE_API_URL, timeout: 5 });

        export const ApiService = {
          async get<T>(path: string): Promise<T> {
            return (await http.get<T>(path)).data;
          },
          async post<T>(path: string, body?: unknown): Promise<T> {
            return (await http.post<T>(path, body)).data;
          },
        };
        """,
    "src/services/download.ts": """
        import { http } from './api';

        export async function downloadFile(fileUrl: string) {
          return http.get(fileUrl, { responseType: 'blob' });
        }
        """,
    "src/stores/orders.ts": """
        import { ApiService } from '@/services/api';
        import { downloadFile } from '@/services/download';

        export const useOrders = defineStore('orders', {
          actions: {
            async fetchOrder(id: string) {
              return ApiService.get(`/orders/${encodeURIComponent(id)}`);
            },
            async place() {
              return ApiService.post('/orders', {});
            },
            async invoice(order: { url: string }) {
              return downloadFile(order.url);
            },
          },
        });
        """,
    "src/sdk/client.ts": "import axios from 'axios';\naxios.defaults.baseURL = import.meta.env.VITE_API_URL;\nexport const client = axios;\n",
    "src/sdk/reports.ts": """
        import { client } from './client';
        import axios from 'axios';
        import ky from 'ky';

        export async function getReport(reportId: number) {
          const path = '/reports/{reportId}'.replace('{reportId}', encodeURIComponent(String(reportId)));
          return client.request({ method: 'GET', url: path });
        }

        export async function direct() {
          await axios({ method: 'delete', url: 'https://other.example/x' });
          await ky.post('https://ky.example/items');
        }
        """,
    "tsconfig.json": '{"compilerOptions": {"baseUrl": ".", "paths": {"@/*": ["./src/*"]}}}',
}


def calls_of(f):
    return {n.name: n for n in f.raw.nodes if n.kind == "http_call"}


def test_fetch_with_a_base_constant_from_another_file(tmp_path):
    f = extract(tmp_path, WEB)
    calls = calls_of(f)
    post = calls["POST {NEXT_PUBLIC_CONTACT_API_URL}jp/contact"]
    assert (post.file, post.line) == ("src/lib/api.ts", 6)
    assert post.attrs == {
        "method": "POST",
        "url_template": "{NEXT_PUBLIC_CONTACT_API_URL}jp/contact",
        "client": "fetch",
        "env_var": "NEXT_PUBLIC_CONTACT_API_URL",
        "path": "jp/contact",
        "resolved_via": "constant",
        "base_name": "CONTACT_API_URL",
        "base_setting": "p/c:setting:src/lib/config.ts:1:CONTACT_API_URL",
        "segments": [{"kind": "lit", "text": "jp"}, {"kind": "lit", "text": "contact"}],
        "holes": [{"name": "NEXT_PUBLIC_CONTACT_API_URL", "source": "env", "default": ""}],
    }
    assert "GET {NEXT_PUBLIC_CONTACT_API_URL}jp/faq/{slug}" in calls
    sendgrid = calls["POST https://api.sendgrid.com/v3/mail/send"].attrs
    assert (sendgrid["base"], sendgrid["path"], sendgrid["resolved_via"]) == (
        "https://api.sendgrid.com",
        "/v3/mail/send",
        "constant",
    )
    assert "POST /api/events/{slug}/register" in calls
    edges = f.edges("CALLS_HTTP")
    assert edges[("symbol:src/lib/api.ts#postContact", post.id.split(":", 1)[1])].line == 6
    assert (
        "symbol:src/components/contact-form.tsx#ContactForm",
        "symbol:src/lib/api.ts#postContact",
    ) in f.edges("CALLS_FN")
    (dynamic,) = [u for u in f.unresolved if u.kind == "http_call"]
    assert (dynamic.file, dynamic.line, dynamic.expr) == ("src/lib/api.ts", 19, "url")
    assert dynamic.reason.startswith("dynamic URL")
    hosts = {(r.name, r.line) for r in f.catalog if r.table == "hosts"}
    assert hosts == {("api.sendgrid.com", 14), ("api.sendgrid.com", 3)}  # called, written


def test_instances_wrappers_defaults_and_sdk_templates(tmp_path):
    f = extract(tmp_path, SPA)
    calls = calls_of(f)
    get = calls["GET {VITE_API_URL}/orders/{id}"]
    assert (get.file, get.line) == ("src/stores/orders.ts", 7)  # the wrapper's call site
    assert get.attrs["resolved_via"] == "wrapper"
    assert get.attrs["wrapper"].endswith("src/services/api.ts#ApiService.get")
    assert (get.attrs["env_var"], get.attrs["path"]) == ("VITE_API_URL", "/orders/{id}")
    assert calls["POST {VITE_API_URL}/orders"].line == 10
    report = calls["GET {VITE_API_URL}/reports/{reportId}"]
    assert report.attrs["resolved_via"] == "default" and report.file == "src/sdk/reports.ts"
    assert calls["DELETE https://other.example/x"].attrs["client"] == "axios"
    assert calls["POST https://ky.example/items"].attrs["client"] == "ky"
    assert not [n for n in calls if "{path}" in n or "{fileUrl}" in n]  # wrappers are not calls
    edges = f.edges("CALLS_HTTP")
    owner = {s for (s, d) in edges if d == get.id.split(":", 1)[1]}
    assert owner == {"symbol:src/stores/orders.ts#useOrders.fetchOrder"}
    (dynamic,) = [u for u in f.unresolved if u.kind == "http_call"]
    assert (dynamic.file, dynamic.line, dynamic.expr) == ("src/stores/orders.ts", 13, "order.url")
    assert "downloadFile" in dynamic.reason


def test_python_requests_and_httpx_clients(tmp_path):
    f = extract(tmp_path, {
        "app/crm.py": """
            import os

            import httpx
            import requests

            BASE = os.getenv("BILLING_URL")


            def push(email):
                return requests.post(f"{os.environ['CRM_BASE_URL']}/contacts", json={"e": email})


            def bill(invoice_id):
                with httpx.Client(base_url=BASE) as client:
                    return client.get(f"/invoices/{invoice_id}")


            def ping():
                return requests.request("HEAD", "https://status.example.com/ping")


            def anything(url):
                return requests.get(url)
            """,
    })  # fmt: skip
    calls = calls_of(f)
    push = calls["POST {CRM_BASE_URL}/contacts"]
    assert (push.file, push.line, push.attrs["client"]) == ("app/crm.py", 10, "requests")
    bill = calls["GET {BILLING_URL}/invoices/{invoice_id}"]
    assert (bill.attrs["resolved_via"], bill.attrs["env_var"]) == ("instance", "BILLING_URL")
    assert (
        calls["HEAD https://status.example.com/ping"].attrs["base"] == "https://status.example.com"
    )
    edges = f.edges("CALLS_HTTP")
    assert any(s == "symbol:app/crm.py#push" for s, _ in edges)
    (dynamic,) = [u for u in f.unresolved if u.kind == "http_call"]
    assert (dynamic.line, dynamic.expr) == (23, "url")
