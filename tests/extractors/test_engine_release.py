"""What extraction built to read a component is freed when the extraction ends, by plain
reference counting: `extract_component` pauses the cyclic collector, so state held in a
reference cycle would stay in memory until the next full collection of the process."""

from __future__ import annotations

import gc

from extractors.engine.evaluate import Evaluator
from extractors.lang.base import FileAdapter
from extractors.registry import extract_component


def test_the_engine_state_is_freed_when_extraction_ends(tmp_path):
    (tmp_path / "package.json").write_text('{"dependencies": {"axios": "1", "@nestjs/core": "10"}}')
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "api.ts").write_text(
        "import axios from 'axios';\n"
        "import { Injectable } from '@nestjs/common';\n"
        "const BASE = process.env.API_URL ?? '';\n"
        "@Injectable()\n"
        "export class Orders {\n"
        "  constructor(private readonly http: HttpService) {}\n"
        "  list() { return axios.get(`${BASE}/orders`); }\n"
        "}\n"
    )
    gc.collect()
    gc.disable()
    try:
        facts = extract_component("p", "c", tmp_path)
        left = [o for o in gc.get_objects() if isinstance(o, (Evaluator, FileAdapter))]
    finally:
        gc.enable()
    assert any(n.kind == "http_call" for n in facts.nodes)  # the engine did read the file
    assert left == []
