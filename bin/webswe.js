#!/usr/bin/env node
// The `webswe` command: the TypeScript CLI through tsx, started by src/cli/launch.node.ts (the Vulkan
// environment Dawn needs, then the command).
import { fileURLToPath } from 'node:url';
import { register } from 'tsx/esm/api';

register();
const { launch } = await import('../src/cli/launch.node.ts');
await launch(fileURLToPath(import.meta.url));
