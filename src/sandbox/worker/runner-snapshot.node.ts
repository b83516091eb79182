// The worker sandbox's runner as node's startup snapshot (the node host of ../worker-node.node.ts builds
// it: `node --snapshot-blob FILE --build-snapshot` on this module bundled as CommonJS): the runner's code
// is compiled and loaded into the heap once, and every runner process starts from that heap with
// `node --snapshot-blob FILE`, ~25 ms of CPU less a process than importing the module from stdin. serve()
// runs when the snapshot is deserialised, in the confined process, with that process's globals and stdin.
// Code deserialised from a snapshot has no dynamic import() (ERR_VM_DYNAMIC_IMPORT_CALLBACK_MISSING), so
// the job's modules are imported by a function compiled then, with the main context's loader.
import { startupSnapshot } from 'node:v8';
import * as vm from 'node:vm';
import { serve } from './runner-serve.ts';

startupSnapshot.setDeserializeMainFunction(() => {
  const loader = (vm.constants as unknown as { USE_MAIN_CONTEXT_DEFAULT_LOADER?: symbol }).USE_MAIN_CONTEXT_DEFAULT_LOADER;
  const importer = vm.runInThisContext('(url) => import(url)', loader ? { importModuleDynamically: loader as never } : {}) as (url: string) => Promise<unknown>;
  serve({ importer, vm });
});
