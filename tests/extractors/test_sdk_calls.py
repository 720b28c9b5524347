"""Apps that talk to their backend through an SDK: Firestore/Auth/Storage/Genkit calls,
cookies by name and server actions become graph facts at their own lines."""

from __future__ import annotations

from jsrepo import extract

PKG = '{"dependencies": {"next": "15.0.0", "firebase": "^11.0.0", "genkit": "^1.0.0"}}'

LIBRARY = {
    "package.json": PKG,
    "lib/shelves.js": """
        import { collection, doc, getDoc, getDocs, query, where, addDoc, runTransaction,
          onSnapshot, deleteDoc } from "firebase/firestore";
        import { db } from "./client";

        export async function loadShelf(shelfId) {
          const ref = doc(db, "shelves", shelfId);
          const snap = await getDoc(ref);
          return snap.data();
        }

        export async function booksOn(shelfId, genre) {
          let q = query(collection(db, `shelves/${shelfId}/books`), where("genre", "==", genre));
          const found = await getDocs(q);
          return found.docs;
        }

        export async function lend(shelfId, loan) {
          const shelf = doc(collection(db, "shelves"), shelfId);
          const entry = doc(collection(db, "shelves", shelfId, "loans"));
          await runTransaction(db, async (tx) => {
            tx.update(shelf, { lent: true });
            tx.set(entry, loan);
          });
        }

        export function watchShelves(cb) {
          return onSnapshot(collection(db, "shelves"), cb);
        }

        export async function addShelf(data) {
          await addDoc(collection(db, "shelves"), data);
        }

        export const dropShelf = (shelfId) => deleteDoc(doc(db, "shelves", shelfId));
        """,
    "lib/client.js": """
        import { getFirestore } from "firebase/firestore";
        export const db = getFirestore();
        """,
    "lib/admin.js": """
        import admin from "firebase-admin";
        export async function archive(id) {
          await admin.firestore().collection("archive").doc(id).set({ at: Date.now() });
        }
        """,
    "lib/live.js": """
        import { getDatabase, ref, child, onValue, push } from "firebase/database";
        import { writeBatch, doc } from "firebase/firestore";
        import { db } from "./client";
        export function watchSeats(hallId, cb) {
          return onValue(child(ref(getDatabase(), "halls"), hallId), cb);
        }
        export const book = (hallId, seat) => push(ref(getDatabase(), `halls/${hallId}/seats`), seat);
        export async function moveAll(ids) {
          const batch = writeBatch(db);
          batch.delete(doc(db, "queue", ids[0]));
          await batch.commit();
        }
        """,
    "lib/other.js": """
        export async function notFirebase(store) {
          return store.collection("things").get();
        }
        """,
    "lib/account.js": """
        import { getAuth, signInWithPopup, signOut, GoogleAuthProvider } from "firebase/auth";
        import { getStorage, ref, uploadBytes } from "firebase/storage";
        export async function login() {
          await signInWithPopup(getAuth(), new GoogleAuthProvider());
        }
        export async function logout() {
          await signOut(getAuth());
        }
        export async function saveCover(shelfId, file) {
          const cover = ref(getStorage(), `covers/${shelfId}.png`);
          await uploadBytes(cover, file);
        }
        """,
    "lib/blurb.js": """
        import { genkit } from "genkit";
        import { googleAI, gemini15Pro } from "@genkit-ai/googleai";
        import { openAI } from "genkitx-openai";

        const writer = genkit({ plugins: [googleAI()], model: gemini15Pro });
        const keyed = genkit({ plugins: [openAI({ apiKey: process.env.MY_OPENAI })] });

        export async function blurb(title) {
          const { text } = await writer.generate(`One line about ${title}`);
          return text;
        }

        export async function tagline(title) {
          return keyed.generate({ model: "openai/gpt-4o", prompt: title });
        }
        """,
}


def test_firestore_reads_and_writes_are_sdk_calls_with_their_paths(tmp_path):
    f = extract(tmp_path, LIBRARY)
    calls = {(n.file, n.line): n for n in f.raw.nodes if n.kind == "sdk_call"}
    got = {k: (n.attrs["op"], n.attrs.get("resource")) for k, n in calls.items()}
    assert got[("lib/shelves.js", 7)] == ("getDoc", "shelves/{shelfId}")
    assert got[("lib/shelves.js", 13)] == ("getDocs", "shelves/{shelfId}/books")
    assert got[("lib/shelves.js", 20)] == (
        "runTransaction",
        "shelves/{shelfId} + shelves/{shelfId}/loans/{new id}",
    )
    assert got[("lib/shelves.js", 27)] == ("onSnapshot", "shelves")
    assert got[("lib/shelves.js", 31)] == ("addDoc", "shelves")
    assert got[("lib/shelves.js", 34)] == ("deleteDoc", "shelves/{shelfId}")
    assert got[("lib/admin.js", 3)] == ("set", "archive/{id}")
    assert got[("lib/live.js", 5)] == ("onValue", "halls/{hallId}")
    assert got[("lib/live.js", 7)] == ("push", "halls/{hallId}/seats")
    assert got[("lib/live.js", 11)] == ("writeBatch.commit", "queue/{ids[0]}")
    assert calls[("lib/live.js", 5)].attrs["sdk"] == "firebase-database"
    assert calls[("lib/shelves.js", 20)].attrs["access"] == "transaction"
    assert calls[("lib/shelves.js", 7)].name == "Firestore getDoc shelves/{shelfId}"
    # a `.collection().get()` chain in a file that imports no Firebase SDK is not one
    assert not [k for k in calls if k[0] == "lib/other.js"]
    # the function that makes the call CALLS_FN it at the call's line
    edges = f.edges("CALLS_FN")
    edge = edges[("symbol:lib/shelves.js#lend", "sdk_call:lib/shelves.js:20:runTransaction")]
    assert (edge.line, edge.attrs["via"]) == (20, "firestore sdk")
    assert not f.kind("http_call")  # an SDK call is never an HTTP call


def test_auth_storage_and_genkit_calls(tmp_path):
    f = extract(tmp_path, LIBRARY)
    calls = {(n.file, n.line): n for n in f.raw.nodes if n.kind == "sdk_call"}
    assert calls[("lib/account.js", 4)].attrs["sdk"] == "firebase-auth"
    assert calls[("lib/account.js", 7)].attrs["op"] == "signOut"
    upload = calls[("lib/account.js", 11)]
    assert (upload.attrs["sdk"], upload.attrs["resource"]) == (
        "firebase-storage",
        "covers/{shelfId}.png",
    )
    blurb = calls[("lib/blurb.js", 9)]
    assert (blurb.attrs["sdk"], blurb.attrs["model"]) == ("genkit", "gemini15Pro")
    assert calls[("lib/blurb.js", 14)].attrs["model"] == '"openai/gpt-4o"'
    # googleAI() reads GEMINI_API_KEY by itself: the key's readers include the generate call
    reads = f.edges("READS_ENV")
    implicit = reads[("sdk_call:lib/blurb.js:9:generate", "env_var:GEMINI_API_KEY")]
    assert (implicit.line, implicit.attrs["implicit"]) == (9, True)
    # a plugin given its key explicitly reads nothing implicitly
    assert not [k for k in reads if k[0].endswith("lib/blurb.js:14:generate")]


COOKIES = {
    "package.json": '{"dependencies": {"next": "15.0.0", "cookies-next": "^4", "js-cookie": "^3"}}',
    "app/session.js": """
        import { cookies } from "next/headers";
        const NAME = "reader_token";
        export async function currentReader() {
          const jar = await cookies();
          return jar.get(NAME)?.value;
        }
        export async function forget() {
          (await cookies()).delete("reader_token");
        }
        """,
    "components/Login.jsx": """
        "use client";
        import { setCookie } from "cookies-next";
        import Cookies from "js-cookie";
        export function remember(token) {
          setCookie("reader_token", token);
          Cookies.set("theme", "dark");
          document.cookie = `consent=${token}; path=/`;
        }
        """,
    "middleware.js": """
        export function middleware(request) {
          const token = request.cookies.get("reader_token");
          return token;
        }
        """,
    "server/routes.js": """
        export function signIn(req, res) {
          res.cookie("sid", "x", { httpOnly: true });
          res.clearCookie("old");
        }
        export const hasSid = (req) => req.cookies.get("sid") || req.cookies.has("sid");
        export const sidTwice = (req) => req.cookies.get("sid") ?? req.cookies.get("sid");
        """,
}


def test_cookies_are_nodes_by_name_with_every_access(tmp_path):
    f = extract(tmp_path, COOKIES)
    assert set(f.kind("cookie")) == {"reader_token", "theme", "sid", "old", "consent"}
    accesses = f.edges("ACCESSES")
    token = sorted(
        (f.nodes[src].file, f.nodes[src].line, e.attrs["access"])
        for (src, dst), e in accesses.items()
        if dst == "cookie:reader_token"
    )
    assert token == [
        ("app/session.js", 5, "read"),
        ("app/session.js", 8, "delete"),
        ("components/Login.jsx", 5, "write"),
        ("middleware.js", 2, "read"),
    ]
    twice = [
        n.id
        for n in f.raw.nodes
        if n.kind == "sdk_call" and n.file == "server/routes.js" and n.line == 6
    ]
    assert len(twice) == len(set(twice)) == 2  # two reads on one line stay two nodes
    assert f.kind("sdk_call")["set cookie reader_token"].attrs["package"] == "cookies-next"
    callers = f.edges("CALLS_FN")
    assert ("symbol:app/session.js#currentReader", "sdk_call:app/session.js:5:cookie.get:reader_token") in callers  # fmt: skip
    assert not f.kind("http_call")


ACTIONS = {
    "package.json": '{"dependencies": {"next": "15.0.0", "react": "19.0.0"}}',
    "app/actions.js": """
        "use server";
        import { saveNote } from "../lib/notes";
        export async function submitNote(form) {
          await saveNote(form.get("text"));
        }
        export async function archiveNote(form) {}
        """,
    "lib/notes.js": """
        export async function saveNote(text) { return text; }
        """,
    "components/NoteForm.jsx": """
        "use client";
        import { useActionState } from "react";
        import { submitNote, archiveNote } from "../app/actions";
        export default function NoteForm() {
          const [state, act] = useActionState(submitNote, null);
          return (
            <form action={submitNote}>
              <button formAction={archiveNote}>archive</button>
            </form>
          );
        }
        """,
}


def test_server_actions_are_calls_from_the_form(tmp_path):
    f = extract(tmp_path, ACTIONS)
    assert f.node("symbol:app/actions.js#submitNote").attrs["server_action"] is True
    calls = f.edges("CALLS_FN")
    form = calls[("symbol:components/NoteForm.jsx#NoteForm", "symbol:app/actions.js#submitNote")]
    assert form.attrs["via"] in {"useActionState", "form action"}
    archive = calls[("symbol:components/NoteForm.jsx#NoteForm", "symbol:app/actions.js#archiveNote")]  # fmt: skip
    assert (archive.line, archive.attrs["via"]) == (8, "formAction")
    # the action's own call continues the chain to the data layer
    assert ("symbol:app/actions.js#submitNote", "symbol:lib/notes.js#saveNote") in calls


PYTHON = {
    "requirements.txt": "google-cloud-firestore==2.16.0\n",
    "app/store.py": """
        from google.cloud import firestore

        db = firestore.Client()


        def load_member(member_id):
            return db.collection("members").document(member_id).get()


        def active_members():
            return db.collection("members").where("active", "==", True).stream()


        def log_visit(member_id, visit):
            db.collection("members").document(member_id).collection("visits").add(visit)
        """,
    "app/cache.py": """
        def not_firestore(client):
            return client.collection("x").get()
        """,
}


def test_python_firestore_chains_are_sdk_calls(tmp_path):
    f = extract(tmp_path, PYTHON)
    got = {
        (n.file, n.line): (n.attrs["op"], n.attrs["resource"])
        for n in f.raw.nodes
        if n.kind == "sdk_call"
    }
    assert got == {
        ("app/store.py", 7): ("get", "members/{member_id}"),
        ("app/store.py", 11): ("stream", "members"),
        ("app/store.py", 15): ("add", "members/{member_id}/visits"),
    }
    calls = f.edges("CALLS_FN")
    assert ("symbol:app/store.py#load_member", "sdk_call:app/store.py:7:get") in calls
