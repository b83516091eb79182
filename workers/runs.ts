// Runs in the trainer worker: create, train, pause, stop and resume runs kept in IndexedDB
// (src/store/idb.browser.ts), one at a time, broadcasting their events to the page's listeners.
// A Web Lock named after the run is held while it trains, so a `running` record whose lock nobody
// holds (its page was reloaded or closed) is shown as `interrupted` and can be resumed.
// Two causes pause a run by themselves, with the reason in its record's `error`: a full store
// (QuotaExceededError: the failed transaction wrote nothing, the previous checkpoint stands) and a lost
// GPU device (paused at once; the old loop's later writes are refused, and Resume opens a new device);
// their messages and the write fence are in run-halts.ts.
// A run that will not fit its backend's memory (src/rl/fit.ts) is refused before it starts, and so is one
// whose sandbox lives in the page (agent.sandbox webcontainer, page-sandboxes.ts) when the page cannot boot it.
import type { Trajectory } from '../src/agent/trajectory.ts';
import type { GpuDeviceLostError } from '../src/gpu/errors.ts';
import { modelPreset } from '../src/model/presets.ts';
import { ConfigError, flattenConfig, fromSavedConfig, resolveConfig, type ConfigValue, type RunConfig } from '../src/rl/config.ts';
import { ratesOf } from '../src/rl/estimate.ts';
import { checkRunFit, type MemoryBudget } from '../src/rl/fit.ts';
import type { Progress } from '../src/rl/phases.ts';
import { RUN_PRESETS } from '../src/rl/presets.ts';
import type { PhaseRow } from '../src/rl/results.ts';
import { train } from '../src/rl/trainer.ts';
import type { SandboxFactory } from '../src/sandbox/types.ts';
import { wsconnect } from '@nats-io/nats-core';
import { RunBus } from '../src/share/bus.ts';
import { SharedRollouts } from '../src/share/learner.ts';
import { deleteRun, getRunRecord, IdbRunStore, listRunRecords, openWebsweDb, updateRunRecord, type RunRecord, type RunStatus, type WebsweDatabase } from '../src/store/idb.browser.ts';
import { fencedStore, isQuotaError, lostStop, quotaStop } from './run-halts.ts';
import { PageSandboxes } from './page-sandboxes.ts';
import { isCachedModel, loadCachedModel } from './models.ts';
import { loadTasks } from './tasks.ts';
import { BROWSER_DEFAULTS, type BackendChoice, type ErrorInfo, type RunEvent, type RunListener, type RunSummary, type ShareSettings, type StartRunRequest, type TrainerApi, type TrajectorySummary } from './trainer.api.ts';
import type { AutoRun, OpenedBackend } from './backend.ts';
import { runShape } from '../src/rl/auto-backend.ts';
import { episodeFollower } from './follow.ts';

/** Refuse a run that will not fit the backend it would train on, with the planner's numbers. A pretrained
 *  model (a cached one, idb:models/…) is sized from its config.json in the Model view (model-fit.ts). */
function checkMemory(cfg: RunConfig, budget: MemoryBudget): void {
  if (!modelPreset(cfg.model.preset)) return;
  const fit = checkRunFit(flattenConfig(cfg), budget);
  if (!fit.ok) throw new ConfigError(fit.message);
}

type RunApi = Omit<TrainerApi, 'probe' | 'checkMatmul' | 'memoryBudget' | 'estimateRun' | 'estimateIteration' | 'loseDeviceForTest'>;

interface Active {
  name: string;
  stopReason: 'pause' | 'stop' | null;
  /** Set when the run stopped by itself (a full store, a lost device): its status and why. */
  halted?: { status: RunStatus; error: ErrorInfo };
  /** Lets go of the run's lock (and of `active`) before its loop has unwound. */
  release?: () => void;
}

const lockName = (run: string) => `webswe-run:${run}`;
const errorInfo = (e: unknown): ErrorInfo =>
  e instanceof Error ? { name: e.name, message: e.message, ...(e.stack ? { stack: e.stack } : {}) } : { name: 'Error', message: String(e) };

/** The worker sandbox, loaded on first use; its absence is reported as what it is. */
async function workerSandbox(): Promise<SandboxFactory> {
  try {
    return (await import('../src/sandbox/worker.browser.ts')).createWorkerSandbox;
  } catch (e) {
    const err = new Error(`the worker sandbox could not be loaded, and browser runs execute episodes in it: ${(e as Error).message}`);
    err.name = 'SandboxMissingError';
    throw err;
  }
}

/** A shared run (run.json's share): connect as the learner over the server's WebSocket listener; the
 *  run id contributors join is the run's name with anything but letters, digits, '-' and '_' as '_'. */
async function openShare(store: IdbRunStore, cfg: RunConfig, log: (m: string) => void): Promise<{ rollouts: SharedRollouts; close(): Promise<void> } | undefined> {
  const share = (await store.readJson<{ share?: ShareSettings }>('run.json'))?.share;
  if (!share) return undefined;
  const run = store.run.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 64);
  let nc;
  try {
    nc = await wsconnect({ servers: share.server, user: share.user, pass: share.password, maxReconnectAttempts: -1 });
  } catch (e) {
    throw new Error(`cannot share the run: the server at ${share.server} ${/auth/i.test((e as Error).message) ? `refused user "${share.user}"` : 'cannot be reached'} (${(e as Error).message})`);
  }
  const rollouts = new SharedRollouts(new RunBus(nc, run), {
    limits: { maxResultBytes: cfg.dist.maxResultBytes, logprobTolerance: cfg.dist.logprobTolerance },
    leaseSeconds: cfg.dist.leaseSeconds, maxAttempts: cfg.dist.maxAttempts, roundSeconds: cfg.dist.roundSeconds,
  });
  log(`sharing this run as "${run}" on ${share.server}: contributors open #/contribute?server=${encodeURIComponent(share.server)}&run=${run}&user=…&pass=… (each with its own contributor user)`);
  return { rollouts, close: () => nc.close() };
}

/** Config checks that only the browser makes (the CLI may run node sandboxes). */
function checkBrowserConfig(cfg: RunConfig): void {
  const sb = cfg.agent.sandbox;
  if (sb === 'node') throw new ConfigError('agent.sandbox: "node" runs real node processes, which only the CLI has; in the browser use "worker"');
}

/** Refuse a run whose sandbox lives in the page (webcontainer) unless the page can boot it: the page says why not. */
async function checkPageSandbox(cfg: RunConfig, pageSandboxes: PageSandboxes): Promise<void> {
  if (cfg.agent.sandbox === 'webcontainer') await pageSandboxes.check('webcontainer');
}

export function runManager(openBackend: (choice: BackendChoice, run?: AutoRun) => Promise<OpenedBackend>): RunApi {
  const listeners = new Set<RunListener>();
  let dbp: Promise<WebsweDatabase> | null = null;
  const database = () => (dbp ??= openWebsweDb());
  let active: Active | null = null;
  let lastProgress: Progress | null = null;
  /** Why runs stopped by themselves, for when the store refused to record it (a full store). */
  const halts = new Map<string, NonNullable<Active['halted']>>();
  /** WebContainer sandboxes, which the page makes (they cannot boot in a worker) and episodes drive from here. */
  const pageSandboxes = new PageSandboxes();

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
    const orphan = rec.status === 'running' && !live && !held.has(lockName(rec.name));
    const halted = orphan ? halts.get(rec.name) : undefined;
    const status = halted?.status ?? (orphan ? 'interrupted' : rec.status);
    return {
      ...rec, status, live, metricsCount: store.metricsCount, ...(halted ? { error: halted.error } : {}),
      config: await store.readJson<Record<string, ConfigValue>>('config.json'),
      results: (await store.readJson<{ phases: PhaseRow[] }>('results.json'))?.phases ?? null,
      rates: ratesOf((await store.readJson<{ rates?: unknown }>('run.json'))?.rates),
    };
  }

  /** Train `name` to its end (or a pause/stop) while holding its lock; resolves once training has begun. */
  async function launch(db: WebsweDatabase, store: IdbRunStore, cfg: RunConfig, choice: BackendChoice): Promise<void> {
    const name = store.run;
    const run: Active = { name, stopReason: null };
    active = run;
    lastProgress = null;
    halts.delete(name);
    let started!: () => void, failed!: (e: unknown) => void;
    const begun = new Promise<void>((res, rej) => ((started = res), (failed = rej)));
    const released = new Promise<void>((res) => (run.release = res));
    void navigator.locks
      .request(lockName(name), { ifAvailable: true }, async (lock) => {
        if (!lock) throw new Error(`run "${name}" is training in another tab of this browser`);
        started();
        // A halted run lets go of its lock at once; its loop unwinds behind the store's fence.
        await Promise.race([body(db, store, cfg, choice, run), released]);
      })
      .catch((e) => {
        if (active === run) active = null;
        failed(e);
      });
    return begun;
  }

  /** A run stopped by itself: record why (kept here too, should the store refuse it), tell the page, let go of the run. */
  async function halt(db: WebsweDatabase, run: Active, status: RunStatus, error: ErrorInfo): Promise<void> {
    if (run.halted) return;
    run.halted = { status, error };
    halts.set(run.name, run.halted);
    await updateRunRecord(db, run.name, { status, error }).catch(() => {});
    emit({ type: 'status', run: run.name, status, error });
    if (active === run) active = null;
    run.release?.();
  }

  /** Whether a WebGPU backend's device is lost, waiting a moment for the news: a destroyed device's
   *  readback can fail before its `lost` promise settles. */
  const lostDevice = (be: OpenedBackend | null) =>
    new Promise<GpuDeviceLostError | null>((resolve) => {
      if (!be?.onLost) return resolve(null);
      const timer = setTimeout(() => (unsubscribe(), resolve(null)), 1000);
      const unsubscribe = be.onLost((e) => (clearTimeout(timer), unsubscribe(), resolve(e)));
    });

  async function body(db: WebsweDatabase, store: IdbRunStore, cfg: RunConfig, choice: BackendChoice, run: Active): Promise<void> {
    const name = store.run;
    let be: OpenedBackend | null = null;
    let unwatch = () => {};
    let closeShare = async () => {};
    try {
      const rec = await updateRunRecord(db, name, { status: 'running', error: undefined });
      const resumedFrom = rec.checkpoint ? { phase: rec.checkpoint.phase, step: rec.checkpoint.step } : null;
      emit({ type: 'status', run: name, status: 'running', resumedFrom });
      // No checkpoint yet: start over, dropping the rows an interrupted first attempt wrote.
      if (!rec.checkpoint) await store.truncateMetrics(0);
      emit({ type: 'log', run: name, message: 'loading tasks, backend and sandbox' });
      const shared = await openShare(store, cfg, (message) => emit({ type: 'log', run: name, message }));
      closeShare = shared?.close ?? closeShare;
      const [sandbox, trainTasks, testTasks, pretrained] = await Promise.all([
        cfg.agent.sandbox === 'webcontainer' ? pageSandboxes.factory('webcontainer') : workerSandbox(),
        loadTasks(cfg.tasks.train, cfg.tasks.maxTrain, cfg.tasks.difficulty, cfg.tasks.select),
        loadTasks(cfg.tasks.test, cfg.tasks.maxTest, cfg.tasks.difficulty, cfg.tasks.select),
        // A model cached in the Model view (model.preset = idb:models/<id>).
        isCachedModel(String(cfg.model.preset)) ? loadCachedModel(String(cfg.model.preset)) : Promise.resolve(undefined),
      ]);
      // auto on a hardware adapter measures the run's own shape (the pretrained model's, when it has one).
      be = await openBackend(choice, { cfg, ...runShape(cfg, pretrained?.config) });
      // A lost device pauses the run at once, not at the next step boundary.
      unwatch = be.onLost?.((e) => void halt(db, run, 'paused', lostStop(e))) ?? unwatch;
      await updateRunRecord(db, name, { backend: be.name });
      emit({ type: 'status', run: name, status: 'running', backend: be.name, resumedFrom });
      emit({ type: 'log', run: name, message: `backend ${be.name} · ${trainTasks.length} training / ${testTasks.length} test tasks` });
      let rows = store.metricsCount;
      store.onCheckpoint = (checkpoint) => emit({ type: 'checkpoint', run: name, checkpoint });
      const fenced = fencedStore(store, () => (run.halted ? `run "${name}" was paused: ${run.halted.error.message}` : null));
      const follow = episodeFollower(name, (e) => !run.halted && emit(e));
      const r = await train(cfg, {
        be: be.be, sandbox, store: fenced, train: trainTasks, test: testTasks, ...(pretrained ? { pretrained } : {}), ...(shared ? { share: shared.rollouts } : {}),
        events: {
          // A halted run's loop may still be unwinding (a lost device): it no longer speaks for the run.
          progress: (p) => {
            if (run.halted) return;
            lastProgress = p;
            emit({ type: 'progress', run: name, progress: p, at: Date.now() });
          },
          metrics: (m) => {
            if (run.halted) return;
            emit({ type: 'metrics', run: name, rows: m, from: rows });
            rows += m.length;
          },
          shouldStop: () => run.stopReason !== null || run.halted !== undefined,
          turn: follow.turn,
          episodeEnd: follow.end,
        },
      });
      if (run.halted) return;
      const status = r.stopped ? (run.stopReason === 'stop' ? 'stopped' : 'paused') : 'done';
      await updateRunRecord(db, name, { status });
      emit({ type: 'status', run: name, status });
    } catch (e) {
      if (run.halted) return;
      if (isQuotaError(e)) return await halt(db, run, 'paused', quotaStop(e, (await getRunRecord(db, name).catch(() => null))?.checkpoint));
      const lost = await lostDevice(be);
      if (run.halted) return;
      if (lost) return await halt(db, run, 'paused', lostStop(lost));
      const error = errorInfo(e);
      await updateRunRecord(db, name, { status: 'failed', error }).catch(() => {});
      emit({ type: 'status', run: name, status: 'failed', error });
    } finally {
      await closeShare().catch(() => undefined);
      unwatch();
      store.onCheckpoint = undefined;
      if (active === run) active = null;
    }
  }

  const busy = () => {
    if (active) throw new Error(`run "${active.name}" is training in this tab; pause or stop it first (the worker owns one GPU device)`);
  };

  return {
    async provideSandbox(kind, provider) {
      pageSandboxes.provide(kind, provider);
    },

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
      const choice = req.backend ?? 'auto';
      checkMemory(cfg, (await openBackend(choice)).budget);
      await checkPageSandbox(cfg, pageSandboxes);
      let store: IdbRunStore;
      try {
        store = await IdbRunStore.open(db, name, { status: 'running', preset: req.preset });
        await store.writeJson('config.json', flattenConfig(cfg));
        await store.writeJson('run.json', { name, preset: req.preset, overrides: req.overrides, backend: choice, persisted: req.persisted ?? null, created: Date.now(), ...(req.share ? { share: req.share } : {}), ...(ratesOf(req.rates) ? { rates: ratesOf(req.rates)! } : {}) });
      } catch (e) {
        // A run without its config cannot resume: take back what was written.
        await deleteRun(db, name).catch(() => {});
        if (!isQuotaError(e)) throw e;
        const err = new Error(`the browser's storage for this site is full, so run "${name}" was not created: delete runs you no longer need (Runs view) or free disk space, then start it again`);
        err.name = 'QuotaExceededError';
        throw err;
      }
      await launch(db, store, cfg, choice);
      return summarise(db, (await getRunRecord(db, name))!, await heldLocks());
    },

    async resumeRun(name, backend) {
      busy();
      const db = await database();
      const rec = await getRunRecord(db, name);
      if (!rec) throw new Error(`no run named "${name}" in this browser's store`);
      if (rec.status === 'done') throw new Error(`run "${name}" is done: nothing to resume`);
      const store = await IdbRunStore.open(db, name);
      const saved = await store.readJson<Record<string, ConfigValue>>('config.json');
      if (!saved) throw new Error(`run "${name}" has no config.json: it cannot be resumed`);
      const cfg = resolveConfig(fromSavedConfig(saved));
      // The choice it last started with, unless told otherwise (then that becomes the one to resume with).
      const runJson = await store.readJson<{ backend?: BackendChoice }>('run.json');
      const choice = backend ?? runJson?.backend ?? 'auto';
      checkMemory(cfg, (await openBackend(choice)).budget);
      await checkPageSandbox(cfg, pageSandboxes);
      if (runJson && runJson.backend !== choice) await store.writeJson('run.json', { ...runJson, backend: choice });
      await launch(db, store, cfg, choice);
      return summarise(db, (await getRunRecord(db, name))!, await heldLocks());
    },

    async pauseRun() {
      if (!active) throw new Error('no run is training in this tab');
      active.stopReason ??= 'pause';
      emit({ type: 'log', run: active.name, message: 'pausing after the current turn (the run resumes from its last checkpoint)' });
    },

    async stopRun() {
      if (!active) throw new Error('no run is training in this tab');
      active.stopReason = 'stop';
      emit({ type: 'log', run: active.name, message: 'stopping after the current turn' });
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
        tests_passed: t.tests.passed.length, tests_total: t.tests.passed.length + t.tests.failed.length, tests_graded: t.tests.graded !== false,
        hack_flags: t.hack_flags ?? [],
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
