"""Requests a library makes for the code: SWR keys that are URLs (through a wrapper fetcher),
GraphQL client endpoints (an external host lands in the hosts catalog), and axios request
interceptors that set the base of an instance."""

from __future__ import annotations

from jsrepo import extract

FILES = {
    "src/lib/fetcher.ts": """
        const HOST = process.env.NEXT_PUBLIC_GARAGE_HOST;

        export const fetcher = (url: string) => fetch(`${HOST}${url}`).then(r => r.json());
        """,
    "src/components/cars.tsx": """
        import useSWR from 'swr';
        import { fetcher } from '../lib/fetcher';

        export function Cars({ owner }: { owner?: string }) {
          const { data } = useSWR(owner ? `/api/owners/${owner}/cars` : null, fetcher);
          const { data: tyres } = useSWR(['/api/tyres', owner], (u: string) => fetch(u));
          const { data: mood } = useSWR('mood', () => 'happy');
          return data && tyres && mood;
        }
        """,
    "src/lib/graph.ts": """
        import { ApolloClient, InMemoryCache } from '@apollo/client';
        import { GraphQLClient } from 'graphql-request';

        export const apollo = new ApolloClient({
          uri: 'https://graph.parts.example/graphql',
          cache: new InMemoryCache(),
        });
        export const local = new GraphQLClient('/api/graphql');
        """,
    "src/lib/http.ts": """
        import axios from 'axios';

        const GARAGE = 'https://garage.example/api';
        export const http = axios.create({ timeout: 3000 });

        http.interceptors.request.use((config) => {
          config.baseURL = GARAGE;
          return config;
        });

        export const service = () => http.get('/service-slots');
        """,
}


def _calls(f):
    return {(n.file, n.line): n for n in f.raw.nodes if n.kind == "http_call"}


def test_swr_url_keys_through_the_fetcher(tmp_path):
    f = extract(tmp_path, FILES)
    calls = _calls(f)
    cars = calls[("src/components/cars.tsx", 5)]
    assert cars.name == "GET {NEXT_PUBLIC_GARAGE_HOST}/api/owners/{owner}/cars"
    assert (cars.attrs["hook"], cars.attrs["hops"]) == ("swr", ["src/lib/fetcher.ts:3"])
    tyres = calls[("src/components/cars.tsx", 6)]
    # the request is the inline fetcher's, made when SWR calls it
    assert (tyres.name, tyres.attrs["client"], tyres.attrs["hook"]) == (
        "GET /api/tyres",
        "fetch",
        "swr",
    )
    assert ("src/components/cars.tsx", 7) not in calls  # 'mood' is a cache key, no URL
    # the fetcher is applied by SWR: not a wrapper that nothing calls
    assert not [u for u in f.unresolved if u.file == "src/lib/fetcher.ts"]
    # an inline fetcher's parameter is not the component's: Cars is no wrapper
    assert not [u for u in f.unresolved if "Cars" in u.reason]


def test_graphql_endpoints_and_their_hosts(tmp_path):
    f = extract(tmp_path, FILES)
    calls = _calls(f)
    apollo = calls[("src/lib/graph.ts", 4)]
    assert apollo.name == "POST https://graph.parts.example/graphql"
    assert (apollo.attrs["protocol"], apollo.attrs["client"]) == ("graphql", "apollo-client")
    assert calls[("src/lib/graph.ts", 8)].name == "POST /api/graphql"
    assert ("graph.parts.example", 4) in {(r.name, r.line) for r in f.catalog if r.table == "hosts"}


def test_axios_interceptor_sets_the_instance_base(tmp_path):
    f = extract(tmp_path, FILES)
    slots = _calls(f)[("src/lib/http.ts", 11)]
    assert slots.name == "GET https://garage.example/api/service-slots"
    assert slots.attrs["resolved_via"] == "interceptor"
    assert slots.attrs["hops"] == ["src/lib/http.ts:7"]


def test_third_party_sdks_are_hosts_not_calls(tmp_path):
    f = extract(
        tmp_path,
        {
            "src/pay.ts": """
                import Stripe from 'stripe';
                import { getDocs, collection } from 'firebase/firestore';

                const stripe = new Stripe(process.env.STRIPE_KEY ?? '');

                export async function charge(db: unknown) {
                  await getDocs(collection(db as never, 'orders'));
                  return stripe.customers.create({ email: 'a@b.example' });
                }
                """,
            "jobs/refund.py": """
                import stripe


                def refund(charge_id):
                    return stripe.Refund.create(charge=charge_id)
                """,
        },
    )
    hosts = {(r.name, r.file, r.line, r.attrs.get("sdk")) for r in f.catalog if r.table == "hosts"}
    assert hosts == {
        ("api.stripe.com", "src/pay.ts", 1, "stripe"),
        ("firestore.googleapis.com", "src/pay.ts", 2, "firebase/firestore"),
        ("api.stripe.com", "jobs/refund.py", 1, "stripe"),
    }
    assert not [n for n in f.raw.nodes if n.kind == "http_call"]
    assert not [u for u in f.unresolved if u.kind == "http_call"]
