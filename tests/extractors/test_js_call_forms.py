"""CALLS_FN follows the callee as the engine evaluates it: the same function reached
through an object member, a static class member, a hook that returns it, CommonJS exports
of members, or a namespace import resolves to the same target."""

from __future__ import annotations

from jsrepo import extract

REPO = {
    "package.json": '{"name": "shop", "dependencies": {"express": "4"}}',
    "src/lib/guard.js": """
        const tools = {
          guard: (fn) => (req, res, next) => {
            Promise.resolve(fn(req, res, next)).catch(next);
          },
        };
        module.exports = tools.guard;
        """,
    "src/services/orders.js": """
        const impl = {
          findOrder: async (id) => ({ id }),
        };
        class Ledger {
          static record(entry) { return entry; }
        }
        module.exports = { findOrder: impl.findOrder, record: Ledger.record };
        """,
    "src/services/index.js": "module.exports.orders = require('./orders');\n",
    "src/events.ts": """
        import { createEvent } from 'effector';
        export const orderShown = createEvent();
        """,
    "src/controllers/orders.js": """
        const guard = require('../lib/guard');
        const { orders } = require('../services');
        import * as events from '../events';

        function useFormatter() {
          return function format(order) {
            return JSON.stringify(order);
          };
        }

        const show = guard(async (req, res) => {
          const format = useFormatter();
          const order = await orders.findOrder(req.params.id);
          orders.record(order);
          events.orderShown(order);
          res.send(format(order));
        });

        module.exports = { show };
        """,
}

SHOW = "symbol:src/controllers/orders.js#show"


def test_calls_reach_functions_through_members_hooks_and_commonjs_exports(tmp_path):
    calls = extract(tmp_path, REPO).edges("CALLS_FN")
    expected = {
        "symbol:src/lib/guard.js#tools.guard": 11,  # module.exports = tools.guard
        "symbol:src/services/orders.js#impl.findOrder": 13,  # {findOrder: impl.findOrder}
        "symbol:src/services/orders.js#Ledger.record": 14,  # {record: Ledger.record}
        "symbol:src/events.ts#orderShown": 15,  # a namespace import's library value
        "symbol:src/controllers/orders.js#useFormatter": 12,
        "symbol:src/controllers/orders.js#useFormatter.<locals>.format": 16,  # hook's return
    }
    found = {dst: edge.line for (src, dst), edge in calls.items() if src == SHOW}
    assert found == expected


def test_a_local_helper_is_part_of_its_caller(tmp_path):
    repo = {
        "src/a.js": """
            export function total(items) {
              const add = (x, y) => x + y;
              return items.reduce(add, 0) + add(1, 2);
            }
            """,
    }
    calls = extract(tmp_path, repo).edges("CALLS_FN")
    assert not [pair for pair in calls if pair[0] == "symbol:src/a.js#total"]
