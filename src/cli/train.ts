// `webswe train` (the pipeline: base → RFT → DAPO, evaluated after each phase, resumable) and
// `webswe eval` (pass@1 ± std and pass@K of a saved model on a task file).
import type { Command } from 'commander';
import { readFile, writeFile as writeJsonText } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import cliProgress from 'cli-progress';
import { openPolicyModel, phaseContext, runSandbox } from '../rl/session.ts';
import { loadModelFromUrl, type LoadedModel } from '../model/load.ts';
import { loadModelDir } from '../model/load.node.ts';
import { CONFIG_SECTIONS, ConfigError, FIELDS, flattenConfig, sectionOf, fromSavedConfig, parseOverrides, resolveConfig, type ConfigValue, type RunConfig } from '../rl/config.ts';
import { evaluate, type Progress } from '../rl/phases.ts';
import { RUN_PRESETS } from '../rl/presets.ts';
import { phaseGains } from '../rl/gains.ts';
import { MODEL_PRESETS, modelPreset } from '../model/presets.ts';
import { resultsTable } from '../rl/results.ts';
import { train } from '../rl/trainer.ts';
import { sandboxFactory } from '../sandbox/index.node.ts';
import { FileRunStore } from '../store/fs.node.ts';
import { runShape } from '../rl/auto-backend.ts';
import { BACKEND_CHOICES, openBackend } from './backend.ts';
import { readTaskFile } from './task-file.ts';
import { RunBus } from '../share/bus.ts';
import { SharedRollouts } from '../share/learner.ts';
import { connectServer } from './share.ts';
import { onStopSignals, UserError, printJson, runCommand } from './output.ts';

/**
 * The pretrained model model.preset names, when it is not a from-scratch preset: a Hugging Face folder
 * on disk, else a Hub id (`owner/name`) fetched from huggingface.co with progress on stderr.
 */
async function loadPretrained(source: string): Promise<LoadedModel | undefined> {
  if (modelPreset(source)) return undefined;
  if (existsSync(source)) return loadModelDir(source);
  if (!/^[\w.-]+\/[\w.-]+$/.test(source)) {
    throw new UserError(`model.preset "${source}" is not a from-scratch preset (${Object.keys(MODEL_PRESETS).join(', ')}), a Hugging Face folder on disk or a Hub id like Qwen/Qwen2.5-0.5B-Instruct`);
  }
  let last = 0;
  return loadModelFromUrl(source, {
    onProgress: (p) => {
      const now = performance.now();
      if (now - last < 2000 && p.loaded !== p.total) return;
      last = now;
      process.stderr.write(`webswe: ${source} ${p.file}: ${(p.loaded / 2 ** 20).toFixed(1)}${p.total ? ` / ${(p.total / 2 ** 20).toFixed(1)}` : ''} MiB\n`);
    },
  }).catch((e: Error) => {
    throw new UserError(`could not load ${source} from the Hugging Face Hub: ${e.message} (offline? download the folder and pass its path)`);
  });
}

/** Progress on stderr: a bar on a terminal, a line per stage change / 10 % otherwise. */
function progressReporter(): { update(p: Progress): void; stop(): void } {
  if (process.stderr.isTTY) {
    const bar = new cliProgress.SingleBar({ format: '{phase} {stage} [{bar}] {value}/{total} eta {eta_formatted}', stream: process.stderr, hideCursor: true }, cliProgress.Presets.shades_classic);
    let key = '';
    return {
      update(p) {
        const k = `${p.phase}/${p.stage}`;
        if (k !== key) {
          if (key) bar.stop();
          bar.start(p.total, p.done, { phase: p.phase, stage: p.stage });
          key = k;
        } else bar.update(p.done);
      },
      stop: () => bar.stop(),
    };
  }
  let key = '', last = -1, stageT0 = 0, stageDone0 = 0;
  const t0 = performance.now();
  return {
    update(p) {
      const k = `${p.phase}/${p.stage}`;
      const now = performance.now();
      if (k !== key) (stageT0 = now), (stageDone0 = p.done);
      const tenth = Math.floor((10 * p.done) / Math.max(1, p.total));
      if (k !== key || tenth !== last || p.done === p.total) {
        // The stage's time left at its rate so far (from its own start: the other stages differ).
        const rate = (p.done - stageDone0) / Math.max(1e-9, now - stageT0);
        const eta = p.done < p.total && p.done > stageDone0 ? ` · ${fmtSeconds((p.total - p.done) / rate / 1000)} left` : '';
        process.stderr.write(`[${((now - t0) / 1000).toFixed(0).padStart(5)} s] ${p.phase === p.stage ? p.stage : `${p.phase} ${p.stage}`}: ${p.done}/${p.total}${eta}\n`);
        key = k;
        last = tenth;
      }
    },
    stop() {},
  };
}

/** 75 → "1 min 15 s", 8 → "8 s". */
export const fmtSeconds = (s: number) => (s >= 60 ? `${Math.floor(s / 60)} min ${Math.round(s % 60)} s` : `${Math.round(s)} s`);

/** The resolved config by section (CONFIG_SECTIONS), a section to a screen: a table of each field's name (after the
 *  section's prefix, which the title gives), value, and meaning with range, wrapped to `width` columns. */
export function configText(cfg: RunConfig, width = 100): string {
  const flat = flattenConfig(cfg);
  const bySection = new Map<string, (typeof FIELDS)[number][]>();
  for (const f of FIELDS) bySection.set(sectionOf(f.path), [...(bySection.get(sectionOf(f.path)) ?? []), f]);
  const out: string[] = [];
  for (const [section, fields] of bySection) {
    const name = (path: string) => (path.includes('.') ? path.slice(path.indexOf('.') + 1) : path);
    const values = fields.map((f) => String(flat[f.path]));
    const nameW = Math.max(...fields.map((f) => name(f.path).length));
    const valueW = Math.min(16, Math.max(...values.map((v) => v.length)));
    const docAt = 2 + nameW + 2 + valueW + 2;
    out.push(...(out.length ? [''] : []), section === 'seed' ? CONFIG_SECTIONS[section]! : `${CONFIG_SECTIONS[section]!} (${section}.*)`);
    fields.forEach((f, i) => {
      const range = f.choices ? ` (${f.choices.join(' | ')})` : f.min !== undefined ? ` [${f.min}, ${f.max}]` : '';
      const head = `  ${name(f.path).padEnd(nameW)}  ${values[i]!.padEnd(valueW)}  `;
      const lines: string[] = [];
      let line = '';
      for (const word of `${f.doc}${range}`.split(' ')) {
        if (line && docAt + line.length + 1 + word.length > width) lines.push(line), (line = word);
        else line = line ? `${line} ${word}` : word;
      }
      lines.push(line);
      // A value wider than its column pushes the meaning to the lines below.
      if (head.length > docAt) out.push(head.trimEnd(), ...lines.map((l) => ' '.repeat(docAt) + l));
      else out.push(head + lines[0]!, ...lines.slice(1).map((l) => ' '.repeat(docAt) + l));
    });
  }
  return out.join('\n');
}

/**
 * The agent, reward and eval settings `webswe eval` and `solve --policy model:DIR` start from (--set
 * overrides them): the run's own, with its task tier and selection rule, when the model folder is a
 * run's checkpoint/ or weights/<phase>/ (episodes must look as they did in training: same system
 * prompt, edit command, turn and token budgets), else the config's defaults with the full system
 * prompt (a folder from elsewhere: a pretrained model, which reads it). A from-scratch folder outside
 * its run needs its settings again with --set (micro: see its preset).
 */
export async function evalBase(modelDir: string): Promise<Record<string, ConfigValue>> {
  // A run's checkpoint/ or a phase's weights/<phase>/: the run's config.json is one or two levels up.
  const runConfig = [join(modelDir, '..', 'config.json'), join(modelDir, '..', '..', 'config.json')].find((p) => existsSync(p) && existsSync(join(p, '..', 'metrics.jsonl'))) ?? join(modelDir, '..', 'config.json');
  if (existsSync(runConfig)) {
    try {
      const flat = JSON.parse(await readFile(runConfig, 'utf8')) as Record<string, ConfigValue>;
      if (typeof flat['agent.maxTurns'] === 'number') {
        // How episodes ran and which tasks the run chose (its tier and selection rule), not its task files.
        return Object.fromEntries(Object.entries(fromSavedConfig(flat)).filter(([k]) => /^(agent|reward|eval)\.|^tasks\.(difficulty|select)$/.test(k)));
      }
    } catch {
      // not a run's config: fall through
    }
  }
  // A folder from elsewhere (a pretrained model): the config's defaults, which document the action format.
  return { 'agent.systemPrompt': 'full' };
}

const writeJsonFile = (path: string, v: unknown) => writeJsonText(path, JSON.stringify(v, null, 2) + '\n');

/** `--share`: connect as the learner and make the run's DAPO rounds work for contributors. */
async function openShare(url: string, runText: string, cfg: RunConfig, ca?: string): Promise<{ rollouts: SharedRollouts; close(): Promise<void> }> {
  const run = runText.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 64);
  const { nc } = await connectServer(url, 'learner', ca);
  const rollouts = new SharedRollouts(new RunBus(nc, run), {
    limits: { maxResultBytes: cfg.dist.maxResultBytes, logprobTolerance: cfg.dist.logprobTolerance },
    leaseSeconds: cfg.dist.leaseSeconds, maxAttempts: cfg.dist.maxAttempts, roundSeconds: cfg.dist.roundSeconds, auditShare: cfg.dist.auditShare,
    onBan: (user, why) => process.stderr.write(`\nwebswe: contributor ${user} was caught by an audit (${why}); its results are refused from now on. Revoke its account on the server: webswe share revoke ${user}\n`),
  });
  process.stderr.write(`webswe: sharing run "${run}": contributors join with  webswe contribute --server nats://USER:PASSWORD@HOST:PORT --run ${run}\n`);
  return { rollouts, close: () => nc.close() };
}

export function registerTrain(program: Command): void {
  program
    .command('train')
    .description('run the pipeline (base → RFT → DAPO, evaluated after each phase) and print the paper-style table')
    .option('--preset <name>', `run preset: ${Object.keys(RUN_PRESETS).join(', ')}`, 'micro')
    .option('--seed <n>', 'seed of every random choice')
    .option('--out <dir>', 'run folder (default runs/<preset>-seed<N>)')
    .option('--resume <dir>', 'continue the run in this folder from its last checkpoint')
    .option('--set <key=value...>', 'override a config field (repeatable), e.g. --set dapo.iterations=2')
    .option('--backend <name>', BACKEND_CHOICES, 'auto')
    .option('--threads <n>', 'threads of the wasm backend (default: every core); any count gives the same numbers')
    .option('--share <url>', 'make the run shareable: contributors play its DAPO rounds (nats://learner:PASSWORD@HOST:PORT; docs/sharing.md)')
    .option('--share-run <id>', 'the run id contributors join (default: the run folder\'s name)')
    .option('--share-ca <file>', 'the share server\'s certificate to trust (a self-signed one: `webswe share server` prints its path)')
    .option('--print-config', 'print the resolved config with each field\'s meaning and range, and exit')
    .option('--json', 'print one JSON document on stdout')
    .action((o: { preset: string; seed?: string; out?: string; resume?: string; set?: string[]; backend: string; threads?: string; share?: string; shareRun?: string; shareCa?: string; printConfig?: boolean; json?: boolean }) =>
      runCommand(async () => {
        let cfg: RunConfig;
        let dir: string;
        try {
          if (o.resume) {
            dir = o.resume;
            const saved = JSON.parse(await readFile(join(dir, 'config.json'), 'utf8').catch(() => { throw new UserError(`${dir} has no config.json: not a webswe run folder`); })) as Record<string, never>;
            if (o.set?.length || o.seed) throw new UserError('--resume continues a run with its own config; --set and --seed cannot change it');
            cfg = resolveConfig(fromSavedConfig(saved));
          } else {
            const preset = RUN_PRESETS[o.preset];
            if (!preset) throw new UserError(`--preset must be one of ${Object.keys(RUN_PRESETS).join(', ')}, got "${o.preset}"`);
            const seed = o.seed !== undefined ? parseOverrides([`seed=${o.seed}`]) : {};
            cfg = resolveConfig(preset.overrides, seed, parseOverrides(o.set ?? []));
            dir = o.out ?? join('runs', `${o.preset}-seed${cfg.seed}`);
            if (existsSync(join(dir, 'config.json')) && !o.printConfig) throw new UserError(`${dir} already holds a run: resume it with --resume ${dir}, or choose another --out`);
          }
        } catch (e) {
          if (e instanceof ConfigError) throw new UserError(e.message);
          throw e;
        }
        if (o.printConfig) {
          if (o.json) printJson({ config: flattenConfig(cfg) });
          else console.log(configText(cfg, Math.max(60, Math.min(process.stdout.columns || 100, 120))));
          return;
        }
        // Before the run folder exists: a model or a task file that cannot be loaded leaves nothing to clean up.
        const pretrained = await loadPretrained(cfg.model.preset);
        const trainTasks = readTaskFile(cfg.tasks.train, { max: cfg.tasks.maxTrain, difficulty: cfg.tasks.difficulty, select: cfg.tasks.select });
        const testTasks = readTaskFile(cfg.tasks.test, { max: cfg.tasks.maxTest, difficulty: cfg.tasks.difficulty, select: cfg.tasks.select });
        const store = await FileRunStore.open(dir);
        // A folder stopped before its first checkpoint has nothing to continue from: say so rather
        // than start over under the name of a resume.
        if (o.resume && !(await store.loadCheckpoint())) {
          throw new UserError(`${dir} has no checkpoint to resume from (the run stopped before its first one): start it again with --out ${dir} after removing the folder, or with another --out`);
        }
        const { be, name } = await openBackend(o.backend, o.threads, { cfg, ...runShape(cfg, pretrained?.config) });
        process.stderr.write(`webswe: run ${dir} · backend ${name} · ${trainTasks.length} training / ${testTasks.length} test tasks\n`);
        const shared = o.share ? await openShare(o.share, o.shareRun ?? basename(resolve(dir)), cfg, o.shareCa) : undefined;
        const bar = progressReporter();
        let stopping = false;
        onStopSignals(() => {
          stopping = true;
          process.stderr.write(`\nwebswe: stopping after the current turn and writing a checkpoint (Ctrl-C again to quit now); continue with --resume ${dir}\n`);
        });
        const r = await train(cfg, { be, sandbox: sandboxFactory(cfg.agent.sandbox), store, train: trainTasks, test: testTasks, ...(pretrained ? { pretrained } : {}), ...(shared ? { share: shared.rollouts } : {}), events: { progress: (p) => bar.update(p), shouldStop: () => stopping } });
        bar.stop();
        if (shared) {
          await shared.close();
          await writeJsonFile(join(dir, 'contributors.json'), Object.fromEntries(shared.rollouts.tally));
        }
        const table = resultsTable(r.phases);
        const { writeFile } = await import('node:fs/promises');
        await writeFile(join(dir, 'results.md'), `# ${dir}\n\n${table}\n`);
        if (o.json) printJson({ phases: r.phases, gains: phaseGains(r.phases), run_dir: dir, stopped: r.stopped, ...(r.resumedFrom ? { resumed_from: r.resumedFrom } : {}) });
        else {
          console.log(r.phases.length ? table : 'no phase finished yet');
          console.log(`run folder: ${dir}${r.stopped ? ` (stopped early: continue with --resume ${dir})` : ''}`);
        }
        return r.stopped ? 130 : 0;
      }),
    );

  program
    .command('eval')
    .description('pass@1 (mean ± std over K samples per task) and pass@K of a saved model on a task file')
    .requiredOption('--model <dir>', 'a Hugging Face folder with tokenizer files (e.g. a run\'s checkpoint/)')
    .requiredOption('--tasks <path>', 'task file (.jsonl)')
    .option('--samples <k>', 'samples per task', '4')
    .option('--max <n>', "use only N tasks (0: all) of the run's tier (tasks.difficulty): the N shortest, or with tasks.select=spread one per repository first", '0')
    .option('--seed <n>', 'sampling seed', '1')
    .option('--backend <name>', BACKEND_CHOICES, 'auto')
    .option('--threads <n>', 'threads of the wasm backend (default: every core); any count gives the same numbers')
    .option('--set <key=value...>', 'agent/eval config overrides, e.g. --set agent.maxTurns=20')
    .option('--json', 'print one JSON document on stdout')
    .action((o: { model: string; tasks: string; samples: string; max: string; seed: string; backend: string; threads?: string; set?: string[]; json?: boolean }) =>
      runCommand(async () => {
        const loaded = await loadModelDir(o.model);
        let cfg: RunConfig;
        try {
          cfg = resolveConfig(await evalBase(o.model), parseOverrides([`eval.samples=${o.samples}`, `seed=${o.seed}`, ...(o.set ?? [])]));
        } catch (e) {
          throw e instanceof ConfigError ? new UserError(e.message) : e;
        }
        const tasks = readTaskFile(o.tasks, { max: Number(o.max), difficulty: cfg.tasks.difficulty, select: cfg.tasks.select });
        const { be } = await openBackend(o.backend, o.threads, { cfg, config: loaded.config });
        const policy = await openPolicyModel(be, loaded, o.model).catch((e: Error) => {
          throw new UserError(e.message);
        });
        const bar = progressReporter();
        const t0 = performance.now();
        // The sandbox as a run's evaluation has it (runSandbox: agent.cacheTests), so a phase evaluated again runs the same way.
        const sandbox = runSandbox(cfg, sandboxFactory(cfg.agent.sandbox));
        const ev = await evaluate(phaseContext(cfg, be, policy, { sandbox, train: [], test: tasks }, { progress: (p) => bar.update(p) }), 'eval');
        bar.stop();
        if (!ev) throw new UserError('the evaluation was stopped before every episode was played');
        const row = { phase: 'eval', ...ev.stats, wall_s: (performance.now() - t0) / 1000 };
        if (o.json) printJson({ phases: [row], model: o.model, tasks: o.tasks });
        else console.log(`pass@1 ${(100 * ev.stats['pass@1']).toFixed(1)} % ± ${(100 * ev.stats['pass@1_std']).toFixed(1)} %, pass@${ev.stats.k} ${(100 * ev.stats['pass@k']).toFixed(1)} % on ${ev.stats.tasks} tasks (${row.wall_s.toFixed(0)} s)`);
      }),
    );
}
