// The portable bundle's entry: scripts/bundle-node.mjs bundles it with the CLI into one plain-JavaScript
// file (no tsx), started as bin/webswe.js starts the command (src/cli/launch.node.ts).
import { fileURLToPath } from 'node:url';
import { launch } from '../src/cli/launch.node.ts';

await launch(fileURLToPath(import.meta.url));
