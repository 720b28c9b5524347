"""A small portfolio written as source code, extracted, bridged and published for real.

shelf: `api` is a NestJS service (`app.use(helmet())`, `app.enableCors()`, global prefix
`api`; a books controller whose writes need `AuthGuard('jwt')`, an auth controller whose
refresh needs `AuthGuard('jwt-refresh')`). `web` is a Vue frontend: `Books.vue` posts from
an Options-API method (`methods.addBook`), `Settings.vue` from a `<script setup>` function
(`save`), both through a wrapper `api` (a variable named like the component) built on
`VITE_API_URL` (a value per env file). `admin` is a React frontend whose class component
posts from a class-field arrow handler (`handleAddTodo`), a function component from a
handler in its body (`handleQuickAdd`). Both frontends have a
`formatTitle` helper (one name, two nodes). `addBook` posts through a wrapper (`send`).
dock: another project whose `api` (Express) serves `POST /api/users`, and whose `gate`
(NestJS) turns CORS on through `NestFactory.create(GateModule, { cors: true })`.

Nothing here is hand-made graph: the tests read what the extractors, the bridges and the
catalog make of these files, so a handler the extraction does not emit fails them.
"""

from __future__ import annotations

import json
from pathlib import Path
from textwrap import dedent

import yaml

from extractors.registry import extract_component
from kb.loader import load_kb
from warehouse.bridges import build_project_graph
from warehouse.catalog import build_catalog, component_frames
from warehouse.knowledge_graph import knowledge_tables
from warehouse.publish import publish
from warehouse.tables import concat

NEST = {"@nestjs/core": "10.3.0", "@nestjs/common": "10.3.0", "@nestjs/passport": "10.0.3",
        "helmet": "7.1.0"}  # fmt: skip

FILES = {
    "shelf/api/package.json": {"name": "shelf-api", "dependencies": NEST},
    "shelf/api/src/main.ts": """
        import { NestFactory } from '@nestjs/core';
        import helmet from 'helmet';
        import { AppModule } from './app.module';

        async function bootstrap() {
          const app = await NestFactory.create(AppModule);
          app.use(helmet());
          app.enableCors();
          app.setGlobalPrefix('api');
          await app.listen(3000);
        }
        bootstrap();
        """,
    "shelf/api/src/app.module.ts": """
        import { Module } from '@nestjs/common';
        import { BooksController } from './books.controller';
        import { TodosController } from './todos.controller';
        import { AuthController } from './auth.controller';

        @Module({ controllers: [BooksController, TodosController, AuthController] })
        export class AppModule {}
        """,
    "shelf/api/src/books.controller.ts": """
        import { Body, Controller, Get, Post, Put, UseGuards } from '@nestjs/common';
        import { AuthGuard } from '@nestjs/passport';

        @Controller()
        export class BooksController {
          @Get('books')
          list() { return []; }

          @UseGuards(AuthGuard('jwt'))
          @Post('books')
          create(@Body() body: unknown) { return body; }

          @Put('settings')
          saveSettings(@Body() body: unknown) { return body; }
        }
        """,
    "shelf/api/src/todos.controller.ts": """
        import { Body, Controller, Post } from '@nestjs/common';

        @Controller('todos')
        export class TodosController {
          @Post()
          add(@Body() body: unknown) { return body; }
        }
        """,
    "shelf/api/src/auth.controller.ts": """
        import { Controller, Post, UseGuards } from '@nestjs/common';
        import { AuthGuard } from '@nestjs/passport';

        @Controller('auth')
        export class AuthController {
          @UseGuards(AuthGuard('jwt-refresh'))
          @Post('refresh')
          refresh() { return {}; }
        }
        """,
    "shelf/web/package.json": {
        "name": "shelf-web",
        "dependencies": {"vue": "3.4.0", "axios": "1.6.0"},
    },
    "shelf/web/.env.development": "VITE_API_URL=http://localhost:3000\n",
    "shelf/web/.env.production": "VITE_API_URL=https://api.shelf.example\n",
    "shelf/web/src/lib/api.ts": """
        import axios from 'axios';

        export const api = axios.create({ baseURL: import.meta.env.VITE_API_URL });

        export function send(path: string, body: unknown) {
          return api.post(path, body);
        }
        """,
    "shelf/web/src/lib/format.ts": """
        export function formatTitle(title: string): string {
          return title.trim();
        }
        """,
    "shelf/admin/src/format.js": """
        export function formatTitle(title) {
          return title.trim();
        }
        """,
    "shelf/web/src/components/Books.vue": """
        <template>
          <form @submit.prevent="addBook"><input v-model="title" /></form>
        </template>

        <script>
        import { send } from '../lib/api';

        export default {
          name: 'Books',
          data() {
            return { title: '' };
          },
          methods: {
            addBook() {
              return send('/api/books', { title: this.title });
            },
          },
        };
        </script>
        """,
    "shelf/web/src/components/Settings.vue": """
        <template><button @click="save">Save</button></template>

        <script setup>
        import { api } from '../lib/api';

        async function save() {
          await api.put('/api/settings', {});
        }
        </script>
        """,
    "shelf/admin/package.json": {
        "name": "shelf-admin",
        "dependencies": {"react": "18.2.0", "axios": "1.6.0"},
    },  # fmt: skip
    "shelf/admin/.env.production": "VITE_API_URL=https://api.shelf.example\n",
    "shelf/admin/src/TodoApp.jsx": """
        import React, { Component } from 'react';
        import axios from 'axios';

        const client = axios.create({ baseURL: import.meta.env.VITE_API_URL });

        export default class TodoApp extends Component {
          state = { text: '' };

          handleAddTodo = async (event) => {
            event.preventDefault();
            await client.post('/api/todos', { text: this.state.text });
          };

          render() {
            return <form onSubmit={this.handleAddTodo} />;
          }
        }
        """,
    "shelf/admin/src/QuickAdd.jsx": """
        import axios from 'axios';

        export function QuickAdd() {
          const handleQuickAdd = async (event) => {
            event.preventDefault();
            await axios.post(`${import.meta.env.VITE_API_URL}/api/todos`, {});
          };

          return <form onSubmit={handleQuickAdd} />;
        }
        """,
    "dock/gate/package.json": {"name": "dock-gate", "dependencies": NEST},
    "dock/gate/src/boot.ts": """
        import { NestFactory } from '@nestjs/core';
        import { GateModule } from './gate.module';

        async function boot() {
          const app = await NestFactory.create(GateModule, { cors: true });
          await app.listen(8081);
        }
        boot();
        """,
    "dock/gate/src/gate.module.ts": """
        import { Module } from '@nestjs/common';
        import { GateController } from './gate.controller';

        @Module({ controllers: [GateController] })
        export class GateModule {}
        """,
    "dock/gate/src/gate.controller.ts": """
        import { Controller, Get } from '@nestjs/common';

        @Controller('gates')
        export class GateController {
          @Get()
          list() { return []; }
        }
        """,
    "dock/api/package.json": {"name": "dock-api", "dependencies": {"express": "4.19.0"}},
    "dock/api/src/server.js": """
        const express = require('express');
        const app = express();
        app.post('/api/users', (req, res) => res.json({}));
        app.listen(8080);
        """,
}

COMPONENTS = {
    "shelf": {
        "api": {"role": "api", "stack": ["typescript"],
                "envs": {"prod": {"url": "https://api.shelf.example"}}},
        "web": {"role": "frontend", "stack": ["vue"],
                "calls": [{"env_var": "VITE_API_URL", "component": "api"}]},
        "admin": {"role": "frontend", "stack": ["react"],
                  "calls": [{"env_var": "VITE_API_URL", "component": "api"}]},
    },
    "dock": {"api": {"role": "api", "stack": ["express"]},
             "gate": {"role": "api", "stack": ["typescript"]}},
}  # fmt: skip


def _write_kb(root: Path) -> Path:
    kb = root / "kb"
    kb.mkdir(parents=True)
    (kb / "kb.yaml").write_text("name: ui\nrepos_root: ../repos\n", encoding="utf-8")
    for pid, comps in COMPONENTS.items():
        pdir = kb / "projects" / pid
        pdir.mkdir(parents=True)
        (pdir / "project.md").write_text(
            f"---\nkind: project\nid: {pid}\ntitle: {pid.title()}\n---\n", encoding="utf-8"
        )
        for cid, front in comps.items():
            (pdir / cid).mkdir()
            head = {"kind": "component", "project": pid, "id": cid, "repo": f"{pid}/{cid}", **front}
            text = "---\n" + yaml.safe_dump(head, sort_keys=False) + "---\n"
            (pdir / cid / "component.md").write_text(text, encoding="utf-8")
    for rel, body in FILES.items():
        path = root / "repos" / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        text = json.dumps(body) if isinstance(body, dict) else dedent(body).lstrip("\n")
        path.write_text(text, encoding="utf-8")
    return kb


def build(tmp: Path) -> dict[str, Path]:
    """Extract every component, bridge each project, catalog them, publish."""
    kb_root = _write_kb(tmp)
    kb = load_kb(kb_root)
    tables = {
        c.key: component_frames(extract_component(c.project, c.id, c.repo_path))
        for c in kb.components()
        if c.repo_path and c.repo_path.is_dir()
    }
    knowledge, catalog = knowledge_tables(kb), build_catalog(kb, tables)
    partitions: dict = {
        pid: build_project_graph(kb, pid, {k: v for k, v in tables.items() if k.startswith(pid + "/")})
        for pid in sorted(kb.projects)
    }  # fmt: skip
    partitions["_global"] = {
        **{t: df for t, df in catalog.items() if t not in ("nodes", "edges")},
        "nodes": concat("nodes", [knowledge["nodes"], catalog["nodes"]]),
        "edges": concat("edges", [knowledge["edges"], catalog["edges"]]),
    }
    data = tmp / "data"
    publish(data, partitions, {"components": {}})
    return {"kb": kb_root, "data": data}
