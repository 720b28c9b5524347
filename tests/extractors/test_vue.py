"""Vue SFCs: script blocks parsed with the right grammar, SFC line numbers, component symbols."""

from __future__ import annotations

from jsrepo import extract

REPO = {
    "tsconfig.json": '{"compilerOptions": {"baseUrl": ".", "paths": {"@/*": ["./src/*"]}}}',
    "src/views/OrderDetail.vue": """
        <template>
          <form @submit.prevent="signInAgain">
            <button @click="download">Download</button>
          </form>
        </template>

        <script setup lang="ts">
        import { onMounted } from 'vue';
        import { ApiService } from '@/services/api';
        import { useOrders } from '@/stores/orders';

        const store = useOrders();
        onMounted(() => store.load());

        async function signInAgain() {
          await ApiService.post('/auth/login', {});
        }

        function download() {}

        function unused() {}
        </script>
        """,
    "src/services/api.ts": """
        import axios from 'axios';
        const http = axios.create({ baseURL: import.meta.env.VITE_API_URL });
        export const ApiService = {
          async post(path: string, body: unknown) {
            return http.post(path, body);
          },
        };
        """,
    "src/stores/orders.ts": """
        export function useOrders() {
          return { load() {} };
        }
        """,
    "src/components/Legacy.vue": """
        <template><div /></template>
        <script>
        export default {
          methods: { go() { return fetch('/api/legacy'); } },
        };
        </script>
        """,
    "src/components/Static.vue": "<template><p>hi</p></template>\n",
    "src/router.ts": """
        import OrderDetail from './views/OrderDetail.vue';
        import Static from '@/components/Static.vue';
        export const routes = [{ path: '/o/:id', component: OrderDetail }, { path: '/', component: Static }];
        """,
}


def test_sfc_is_a_code_file_and_a_component_with_script_symbols(tmp_path):
    f = extract(tmp_path, REPO)
    sfc = f.node("code_file:src/views/OrderDetail.vue")
    assert (sfc.file, sfc.line, sfc.attrs["language"]) == ("src/views/OrderDetail.vue", 1, "vue")
    comp = f.node("symbol:src/views/OrderDetail.vue#OrderDetail")
    assert comp.attrs["symbol_kind"] == "component" and comp.end_line == 23
    assert f.where("symbol:src/views/OrderDetail.vue#signInAgain") == "src/views/OrderDetail.vue:15"
    assert "symbol:src/views/OrderDetail.vue#store" not in f.nodes  # state is the component's
    assert f.node("symbol:src/components/Static.vue#Static").file == "src/components/Static.vue"
    assert (
        len([n for n in f.raw.nodes if n.id.endswith("code_file:src/views/OrderDetail.vue")]) == 1
    )


def test_imports_calls_and_template_references(tmp_path):
    f = extract(tmp_path, REPO)
    imports = set(f.edges("IMPORTS"))
    assert ("code_file:src/views/OrderDetail.vue", "code_file:src/services/api.ts") in imports
    assert ("code_file:src/router.ts", "code_file:src/views/OrderDetail.vue") in imports
    assert ("code_file:src/router.ts", "code_file:src/components/Static.vue") in imports
    calls = f.edges("CALLS_FN")
    comp = "symbol:src/views/OrderDetail.vue#OrderDetail"
    assert calls[(comp, "symbol:src/stores/orders.ts#useOrders")].line == 12
    assert (comp, "symbol:src/views/OrderDetail.vue#signInAgain") in calls  # from the template
    assert (comp, "symbol:src/views/OrderDetail.vue#download") in calls
    assert (comp, "symbol:src/views/OrderDetail.vue#unused") not in calls
    http = {n.name: n for n in f.raw.nodes if n.kind == "http_call"}
    login = http["POST {VITE_API_URL}/auth/login"]
    assert (login.file, login.line) == ("src/views/OrderDetail.vue", 16)
    legacy = http["GET /api/legacy"]
    assert (legacy.file, legacy.line) == ("src/components/Legacy.vue", 4)


def test_broken_sfc_script_keeps_line_numbers(tmp_path):
    f = extract(tmp_path, {
        "src/Broken.vue": """
            <template><p>{{ a }}</p></template>
            <script lang="ts">
            export function ok() { return 1; }
            const = ;
            </script>
            """,
    })  # fmt: skip
    assert f.where("symbol:src/Broken.vue#ok") == "src/Broken.vue:3"
    (warning,) = [p for p in f.problems if p.rule == "syntax-error"]
    assert (warning.path, warning.line) == ("src/Broken.vue", 4)


def test_options_api_methods_are_symbols_the_template_calls(tmp_path):
    """`export default { methods: { addBook() {…} } }` (also in `defineComponent({…})`): each
    method is a symbol `<Component>.<method>` owning its calls; the template's handler
    names link the component to them."""
    f = extract(tmp_path, {
        "src/Shelf.vue": """
            <template><form @submit.prevent="addBook" /></template>
            <script>
            export default {
              data() { return { title: '' }; },
              methods: {
                addBook() {
                  return fetch('/api/books', { method: 'POST' });
                },
              },
            };
            </script>
            """,
        "src/Typed.vue": """
            <template><button @click="go">Go</button></template>
            <script lang="ts">
            import { defineComponent } from 'vue';
            export default defineComponent({
              methods: { go() { return fetch('/api/go'); } },
            });
            </script>
            """,
    })  # fmt: skip
    add = f.node("symbol:src/Shelf.vue#Shelf.addBook")
    assert (add.line, add.end_line, add.attrs["symbol_kind"]) == (6, 8, "method")
    assert add.attrs["ui_handler"] is True  # the template binds it: ranked as a handler
    assert f.where("symbol:src/Typed.vue#Typed.go") == "src/Typed.vue:5"
    http = f.edges("CALLS_HTTP")
    assert (
        "symbol:src/Shelf.vue#Shelf.addBook",
        "http_call:POST /api/books@src/Shelf.vue:7",
    ) in http
    calls = f.edges("CALLS_FN")
    assert calls[("symbol:src/Shelf.vue#Shelf", "symbol:src/Shelf.vue#Shelf.addBook")].attrs == {
        "via": "template"
    }
    assert ("symbol:src/Typed.vue#Typed", "symbol:src/Typed.vue#Typed.go") in calls
