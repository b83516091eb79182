// Runs in the trainer worker: create, train, pause, stop and resume runs kept in IndexedDB
// (src/store/idb.browser.ts), one at a time, broadcasting their events to the page's listeners.
// A Web Lock named after the run is held while it trains, so a `running` record whose lock nobody
// holds (its page was reloaded or closed) is shown as `interrupted` and can be resumed.
import type { Trajectory } from '../src/agent/trajectory.ts';
import { ConfigError, flattenConfig, resolveConfig, type ConfigValue, type RunConfig } from '../src/rl/config.ts';
import type { Progress } from '../src/rl/phases.ts';
import { RUN_PRESETS } from '../src/rl/presets.ts';
import { train, type PhaseRow } from '../src/rl/trainer.ts';
import type { SandboxFactory } from '../src/sandbox/types.ts';
import { deleteRun, getRunRecord, IdbRunStore, listRunRecords, openWebsweDb, updateRunRecord, type RunRecord, type WebsweDatabase } from '../src/store/idb.browser.ts';
import { loadTasks } from './tasks.ts';
import { BROWSER_DEFAULTS, type BackendChoice, type ErrorInfo, type RunEvent, type RunListener, type RunSummary, type StartRunRequest, type TrainerApi, type TrajectorySummary } from './trainer.api.ts';
import type { OpenedBackend } from './backend.ts';

type RunApi = Omit<TrainerApi, 'probe' | 'checkMatmul'>;

interface Active {
  name: string;
  stopReason: 'pause' | 'stop' | null;
}

const lockName = (run: string) => `webswe-run:${run}`;
const errorInfo = (e: unknown): ErrorInfo =>
  e instanceof Error ? { name: e.name, message: e.message, ...(e.stack ? { stack: e.stack } : {}) } : { name: 'Error', message: String(e) };

/** The worker sandbox, loaded on first use; its absence is reported as what it is. */
async function workerSandbox(): Promise<SandboxFactory> {
  try {
    return (await import('../src/sandbox/worker.browser.ts')).createWorkerSandbox;
  } catch (e) {
    const err = new Error(`the worker sandbox (src/sandbox/worker.browser.ts) could not be loaded, and browser runs execute episodes in it: ${(e as Error).message}`);
    err.name = 'SandboxMissingError';
    throw err;
  }
}

/** Config checks that only the browser makes (the CLI may run node sandboxes). */
function checkBrowserConfig(cfg: RunConfig): void {
  const sb = cfg.agent.sandbox;
  if (sb === 'node') throw new ConfigError('agent.sandbox: "node" runs real node processes, which only the CLI has; in the browser use "worker"');
  if (sb === 'webcontainer') throw new ConfigError('agent.sandbox: WebContainers boot from the page, not from the trainer worker, and are not wired to training yet; use "worker"');
}

export function runManager(openBackend: (choice: BackendChoice) => Promise<OpenedBackend>): RunApi {
  const listeners = new Set<RunListener>();
  let dbp: Promise<WebsweDatabase> | null = null;
  const database = () => (dbp ??= openWebsweDb());
  let active: Active | null = null;
  let lastProgress: Progress | null = null;

  const emit = (e: RunEvent) => {
    for (const l of listeners) {
      // A listener is a comlink proxy: its call is a promise; a page that has gone never answers.
      try {
        void Promise.resolve(l(e)).catch(() => listeners.delete(l));
      } catch {
        listeners.delete(l);
      }
    }
  };

  async function heldLocks(): Promise<Set<string>> {
    const q = await navigator.locks.query();
    return new Set((q.held ?? []).map((l) => l.name ?? ''));
  }

  async function summarise(db: WebsweDatabase, rec: RunRecord, held: Set<string>): Promise<RunSummary> {
    const store = await IdbRunStore.open(db, rec.name);
    const live = active?.name === rec.name;
    const status = rec.status === 'running' && !live && !held.has(lockName(rec.name)) ? 'interrupted' : rec.status;
    return {
      ...rec, status, live, metricsCount: store.metricsCount,
      config: await store.readJson<Record<string, ConfigValue>>('config.json'),
      results: (await store.readJson<{ phases: PhaseRow[] }>('results.json'))?.phases ?? null,
    };
  }

  /** Train `name` to its end (or a pause/stop) while holding its lock; resolves once training has begun. */
  async function launch(db: WebsweDatabase, store: IdbRunStore, cfg: RunConfig, choice: BackendChoice): Promise<void> {
    const name = store.run;
    const run: Active = { name, stopReason: null };
    active = run;
    lastProgress = null;
    let started!: () => void, failed!: (e: unknown) => void;
    const begun = new Promise<void>((res, rej) => ((started = res), (failed = rej)));
    void navigator.locks
      .request(lockName(name), { ifAvailable: true }, async (lock) => {
        if (!lock) throw new Error(`run "${name}" is training in another tab of this browser`);
        started();
        await body(db, store, cfg, choice, run);
      })
      .catch((e) => {
        if (active === run) active = null;
        failed(e);
      });
    return begun;
  }

  async function body(db: WebsweDatabase, store: IdbRunStore, cfg: RunConfig, choice: BackendChoice, run: Active): Promise<void> {
    const name = store.run;
    try {
      const rec = await updateRunRecord(db, name, { status: 'running', error: undefined });
      const resumedFrom = rec.checkpoint ? { phase: rec.checkpoint.phase, step: rec.checkpoint.step } : null;
      emit({ type: 'status', run: name, status: 'running', resumedFrom });
      // No checkpoint yet: start over, dropping the rows an interrupted first attempt wrote.
      if (!rec.checkpoint) await store.truncateMetrics(0);
      emit({ type: 'log', run: name, message: 'loading tasks, backend and sandbox' });
      const [be, sandbox, trainTasks, testTasks] = await Promise.all([
        openBackend(choice), workerSandbox(),
        loadTasks(cfg.tasks.train, cfg.tasks.maxTrain, cfg.tasks.difficulty),
        loadTasks(cfg.tasks.test, cfg.tasks.maxTest, cfg.tasks.difficulty),
      ]);
      await updateRunRecord(db, name, { backend: be.name });
      emit({ type: 'status', run: name, status: 'running', backend: be.name, resumedFrom });
      emit({ type: 'log', run: name, message: `backend ${be.name} · ${trainTasks.length} training / ${testTasks.length} test tasks` });
      let rows = store.metricsCount;
      store.onCheckpoint = (checkpoint) => emit({ type: 'checkpoint', run: name, checkpoint });
      const r = await train(cfg, {
        be: be.be, sandbox, store, train: trainTasks, test: testTasks,
        events: {
          progress: (p) => {
            lastProgress = p;
            emit({ type: 'progress', run: name, progress: p, at: Date.now() });
          },
          metrics: (m) => {
            emit({ type: 'metrics', run: name, rows: m, from: rows });
            rows += m.length;
          },
          shouldStop: () => run.stopReason !== null,
        },
      });
      const status = r.stopped ? (run.stopReason === 'stop' ? 'stopped' : 'paused') : 'done';
      if (!r.stopped) await store.writeJson('results.json', { phases: r.phases, run_dir: store.location, stopped: false });
      await updateRunRecord(db, name, { status });
      emit({ type: 'status', run: name, status });
    } catch (e) {
      const error = errorInfo(e);
      await updateRunRecord(db, name, { status: 'failed', error }).catch(() => {});
      emit({ type: 'status', run: name, status: 'failed', error });
    } finally {
      store.onCheckpoint = undefined;
      if (active === run) active = null;
    }
  }

  const busy = () => {
    if (active) throw new Error(`run "${active.name}" is training in this tab; pause or stop it first (the worker owns one GPU device)`);
  };

  return {
    async watch(listener) {
      listeners.add(listener);
      return { run: active?.name ?? null, progress: active ? lastProgress : null };
    },

    async activeRun() {
      return { run: active?.name ?? null, progress: active ? lastProgress : null };
    },

    async startRun(req: StartRunRequest) {
      busy();
      const preset = req.preset ? RUN_PRESETS[req.preset] : { overrides: {} };
      if (!preset) throw new ConfigError(`preset: "${req.preset}" is not one of ${Object.keys(RUN_PRESETS).join(', ')}`);
      const cfg = resolveConfig(preset.overrides, BROWSER_DEFAULTS, req.overrides);
      checkBrowserConfig(cfg);
      const stamp = new Date().toISOString().slice(0, 19).replace(/[-:]/g, '').replace('T', '-');
      const name = req.name?.trim() || `${req.preset || 'custom'}-seed${cfg.seed}-${stamp}`;
      if (name.length > 100) throw new ConfigError('name: at most 100 characters');
      const db = await database();
      if (await getRunRecord(db, name)) throw new ConfigError(`name: a run named "${name}" already exists in this browser; choose another name or resume it`);
      const store = await IdbRunStore.open(db, name, { status: 'running', preset: req.preset });
      await store.writeJson('config.json', flattenConfig(cfg));
      await store.writeJson('run.json', { name, preset: req.preset, overrides: req.overrides, backend: req.backend ?? 'auto', created: Date.now() });
      await launch(db, store, cfg, req.backend ?? 'auto');
      return summarise(db, (await getRunRecord(db, name))!, await heldLocks());
    },

    async resumeRun(name, backend = 'auto') {
      busy();
      const db = await database();
      const rec = await getRunRecord(db, name);
      if (!rec) throw new Error(`no run named "${name}" in this browser's store`);
      if (rec.status === 'done') throw new Error(`run "${name}" is done: nothing to resume`);
      const store = await IdbRunStore.open(db, name);
      const saved = await store.readJson<Record<string, ConfigValue>>('config.json');
      if (!saved) throw new Error(`run "${name}" has no config.json: it cannot be resumed`);
      const cfg = resolveConfig(saved);
      await launch(db, store, cfg, backend);
      return summarise(db, (await getRunRecord(db, name))!, await heldLocks());
    },

    async pauseRun() {
      if (!active) throw new Error('no run is training in this tab');
      active.stopReason ??= 'pause';
      emit({ type: 'log', run: active.name, message: 'pausing at the next step boundary (the run resumes from its last checkpoint)' });
    },

    async stopRun() {
      if (!active) throw new Error('no run is training in this tab');
      active.stopReason = 'stop';
      emit({ type: 'log', run: active.name, message: 'stopping at the next step boundary' });
    },

    async listRuns() {
      const db = await database();
      const held = await heldLocks();
      return Promise.all((await listRunRecords(db)).map((r) => summarise(db, r, held)));
    },

    async getRun(name) {
      const db = await database();
      const rec = await getRunRecord(db, name);
      return rec ? summarise(db, rec, await heldLocks()) : null;
    },

    async deleteRun(name) {
      if (active?.name === name) throw new Error(`run "${name}" is training; stop it before deleting it`);
      await deleteRun(await database(), name);
    },

    async readMetrics(name, from = 0) {
      return (await IdbRunStore.open(await database(), name)).readMetrics(from);
    },

    async listTrajectorySteps(name) {
      return (await IdbRunStore.open(await database(), name)).listTrajectorySteps();
    },

    async readTrajectories(name, phase, step) {
      const ts = (await (await IdbRunStore.open(await database(), name)).readTrajectories(phase, step)) as Trajectory[];
      return ts.map((t, index): TrajectorySummary => ({
        index, task_id: t.task_id, policy: t.policy, seed: t.seed, turns: t.turns.length, reward: t.reward.total, end_reason: t.end_reason,
        tests_passed: t.tests.passed.length, tests_total: t.tests.passed.length + t.tests.failed.length,
      }));
    },

    async readTrajectory(name, phase, step, index) {
      const ts = (await (await IdbRunStore.open(await database(), name)).readTrajectories(phase, step)) as Trajectory[];
      const t = ts[index];
      if (!t) return null;
      const { tokens: _tokens, ...view } = t;
      return view;
    },
  };
}
