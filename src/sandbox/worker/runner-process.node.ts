// The worker sandbox's runner in a confined `node` process (the node host of ../worker-node.node.ts), as
// a module: bundled by esbuild and loaded from stdin (`node -e` reads one line, imports it), so the
// process reads no file. Where node can start from a snapshot of the runner instead (runner-snapshot.node.ts),
// the host uses that. The work is runner-serve.ts's.
import * as vm from 'node:vm';
import { serve } from './runner-serve.ts';

serve({ vm });
