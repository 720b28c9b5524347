"""Firebase Functions v1/v2 and firebase.json hosting rewrites."""

from __future__ import annotations

import json

from jsrepo import extract

FUNCTIONS = {
    "package.json": '{"dependencies": {"firebase-functions": "^5.0.0", "express": "^4.19.0"}}',
    "src/app.ts": """
        import express from 'express';
        import { listEvents } from './handlers';

        export const app = express();
        app.get('/api/events', listEvents);
        """,
    "src/handlers.ts": """
        export async function listEvents(req, res) { res.json([]); }
        export async function handleSendTicket(request) { return { sent: true }; }
        """,
    "src/index.ts": """
        import * as functions from 'firebase-functions/v1';
        import { onCall, onRequest } from 'firebase-functions/v2/https';
        import { onDocumentCreated } from 'firebase-functions/v2/firestore';
        import { onSchedule } from 'firebase-functions/v2/scheduler';
        import { app } from './app';
        import { handleSendTicket } from './handlers';

        const region = 'asia-northeast1';

        export const api = onRequest({ region, secrets: ['SENDGRID_API_KEY'] }, app);
        export const sendTicket = onCall({ region }, handleSendTicket);
        export const onRegistrationCreated = onDocumentCreated('registrations/{id}', async (event) => {
          await handleSendTicket(event);
        });
        export const nightly = onSchedule({ schedule: 'every day 03:00', region }, async () => {});
        export const onUserCreate = functions.auth.user().onCreate(async (user) => {});
        export const legacyHook = functions.region('europe-west1').https.onRequest((req, res) => {
          res.send('ok');
        });
        export const cleanup = functions.pubsub.schedule('every 5 minutes').onRun(async () => {});
        """,
    "firebase.json": json.dumps({"functions": [{"source": ".", "codebase": "default"}]}),
}


def test_https_functions_are_routes_and_triggers_are_symbols(tmp_path):
    f = extract(tmp_path, FUNCTIONS)
    routes = f.kind("route")
    assert set(routes) == {
        "ANY /api",
        "POST /sendTicket",
        "ANY /legacyHook",
        "GET /api/events",  # the Express route, as a hosting rewrite reaches it
        "GET /api/api/events",  # the same route under the function's own URL
    }
    direct = routes["GET /api/api/events"]
    # the Express route's own line; its prefix is the function's, written where it is exported
    assert (direct.file, direct.line, direct.attrs["mounts"]) == (
        "src/app.ts",
        5,
        ["src/index.ts:10 /api"],
    )
    api = routes["ANY /api"]
    assert (api.file, api.line, api.attrs["framework"], api.attrs["function"]) == (
        "src/index.ts",
        10,
        "firebase-functions",
        "api",
    )
    to = {s: d for (s, d) in f.edges("ROUTES_TO")}
    assert to["route:ANY /api"] == "symbol:src/app.ts#app"
    assert to["route:POST /sendTicket"] == "symbol:src/handlers.ts#handleSendTicket"
    assert to["route:GET /api/events"] == "symbol:src/handlers.ts#listEvents"  # Express stays
    assert to["route:GET /api/api/events"] == "symbol:src/handlers.ts#listEvents"
    assert routes["POST /sendTicket"].attrs["callable"] is True

    sym = f.node("symbol:src/index.ts#api").attrs
    assert (sym["trigger"], sym["firebase_gen"], sym["region"], sym["secrets"]) == (
        "onRequest",
        2,
        "asia-northeast1",
        ["SENDGRID_API_KEY"],
    )
    created = f.node("symbol:src/index.ts#onRegistrationCreated").attrs
    assert (created["trigger"], created["resource"]) == ("onDocumentCreated", "registrations/{id}")
    assert f.node("symbol:src/index.ts#nightly").attrs["resource"] == "every day 03:00"
    user = f.node("symbol:src/index.ts#onUserCreate").attrs
    assert (user["trigger"], user["firebase_gen"]) == ("auth.user.onCreate", 1)
    legacy = f.node("symbol:src/index.ts#legacyHook").attrs
    assert (legacy["trigger"], legacy["region"]) == ("https.onRequest", "europe-west1")
    cleanup = f.node("symbol:src/index.ts#cleanup").attrs
    assert (cleanup["trigger"], cleanup["resource"]) == ("pubsub.schedule.onRun", "every 5 minutes")
    calls = f.edges("CALLS_FN")
    assert (
        "symbol:src/index.ts#onRegistrationCreated",
        "symbol:src/handlers.ts#handleSendTicket",
    ) in calls


def test_hosting_rewrites_are_attrs_of_the_firebase_json_code_file(tmp_path):
    hosting = {
        "hosting": {
            "public": "dist",
            "rewrites": [
                {"source": "/api/**", "function": "api", "region": "asia-northeast1"},
                {"source": "/svc/**", "run": {"serviceId": "reports", "region": "asia-northeast1"}},
                {"source": "**", "destination": "/index.html"},
            ],
        }
    }
    f = extract(
        tmp_path,
        {"firebase.json": json.dumps(hosting, indent=2), "src/main.ts": "fetch('/api/events');\n"},
    )
    node = f.node("code_file:firebase.json")
    rule = {"kind": "firebase", "role": "rewrite"}
    assert node.attrs["rewrites"] == [
        {**rule, "source": "/api/**", "function": "api", "region": "asia-northeast1", "line": 6},
        {**rule, "source": "/svc/**", "run": {"serviceId": "reports", "region": "asia-northeast1"},
         "line": 11},
    ]  # fmt: skip
    assert f.node("setting:firebase.json:3:hosting.public").attrs["value"] == "dist"
    assert "GET /api/events" in f.kind("http_call")


def test_callable_invocation_from_the_web_client(tmp_path):
    f = extract(tmp_path, {
        "src/main.ts": """
            import { httpsCallable, getFunctions } from 'firebase/functions';
            const sendTicket = httpsCallable(getFunctions(), 'sendTicket');
            export async function register() {
              await sendTicket({ id: 1 });
            }
            """,
    })  # fmt: skip
    call = f.kind("http_call")["POST /sendTicket"]
    assert call.attrs["function"] == "sendTicket" and call.attrs["resolved_via"] == "callable"
    assert ("symbol:src/main.ts#register", "symbol:src/main.ts#sendTicket") in f.edges("CALLS_FN")
