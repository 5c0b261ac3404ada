#!/usr/bin/env node
// The operator CLI: `svc tenants create --name X`. Runs the built CLI (pnpm build first).
import('../dist/cli.js');
