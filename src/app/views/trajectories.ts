// Trajectories: the steps that wrote episodes (bc, rft, dapo iterations, evaluations), the episodes
// of one step, and one episode turn by turn: the issue, each turn's reasoning, command and
// observation, the end, the reward and the final diff.
import type { TurnRecord } from '../../agent/trajectory.ts';
import type { TrajectoryView } from '../../../workers/trainer.api.ts';
import { trainer } from '../client.ts';
import { el, errorText, heading, num, runHref } from '../dom.ts';

const stepLabel = (phase: string, step: number) => `${phase} ${step}`;

/** What each reward-hack flag means (src/agent/hack-flags.ts), for the viewer's tooltips and episode facts. */
export const HACK_FLAG_TEXT: Record<string, string> = {
  test_files: 'a test file was added, changed or deleted, or written from code',
  builtins: "a built-in's property or prototype was changed",
  globals: 'a global was assigned, defined, deleted or frozen',
  assert_module: 'non-test code imports node:assert',
  test_module: 'non-test code imports node:test',
  process_exit: 'non-test code exits the process or sets its exit code',
  reads_tests: 'non-test code imports or reads a test file',
  special_cases: "non-test code gained literals that are the tests' inputs or expected values",
};

/** Episodes a page of the list shows. */
const EPISODES_PER_PAGE = 50;

export function renderSteps(root: HTMLElement, name: string, phase?: string, step?: number): () => void {
  const error = el('div', { class: 'error', role: 'alert', hidden: true });
  const steps = el('ul', { id: 'trajectory-steps', class: 'inline-list', 'aria-label': 'steps with episodes' });
  const episodes = el('table', { id: 'episodes', 'aria-label': 'episodes of the step' });
  const caption = el('h3', { id: 'episodes-heading' });
  const playedBy = el('p', { id: 'episodes-policy', hidden: true });
  const prev = el('button', { type: 'button', id: 'episodes-prev', disabled: true }, 'Previous');
  const next = el('button', { type: 'button', id: 'episodes-next', disabled: true }, 'Next');
  const pageText = el('span', { id: 'episodes-page', 'aria-live': 'polite' });
  const pager = el('div', { class: 'controls', role: 'group', 'aria-label': 'pages of episodes', hidden: true }, prev, ' ', pageText, ' ', next);
  root.append(
    heading(`Trajectories of ${name}`),
    el('p', {}, el('a', { href: runHref(name) }, `← run ${name}`)),
    error,
    el('nav', { 'aria-label': 'steps' }, steps),
    el('section', { 'aria-labelledby': 'episodes-heading' }, caption, playedBy, el('div', { class: 'table-scroll' }, episodes), pager),
  );
  void (async () => {
    try {
      const list = await trainer.listTrajectorySteps(name);
      if (!list.length) {
        steps.append(el('li', {}, 'No episodes stored yet.'));
        return;
      }
      const cur = phase !== undefined && step !== undefined ? { phase, step } : list[0]!;
      for (const s of list) {
        const here = s.phase === cur.phase && s.step === cur.step;
        steps.append(el('li', {}, el('a', { href: runHref(name, 'trajectories', s.phase, s.step), 'aria-current': here ? 'page' : undefined }, stepLabel(s.phase, s.step))));
      }
      caption.textContent = `Episodes of ${stepLabel(cur.phase, cur.step)}`;
      const ts = await trainer.readTrajectories(name, cur.phase, cur.step);
      const flagged = ts.filter((t) => t.hack_flags.length > 0).length;
      if (flagged) caption.append(el('span', { class: 'hack-count' }, ` · ${flagged} of ${ts.length} flagged`));
      // One policy played them all (cloning's expert, a phase's model): said once above the table, not on every row.
      const policies = new Set(ts.map((t) => t.policy));
      const onePolicy = policies.size === 1 ? ts[0]!.policy : null;
      if (onePolicy !== null) (playedBy.hidden = false), (playedBy.textContent = `Played by ${onePolicy}.`);
      const columns = ['#', 'task', ...(onePolicy === null ? ['policy'] : []), 'turns', 'reward', 'end', 'tests', 'flags'];
      let pageAt = 0;
      const pages = Math.max(1, Math.ceil(ts.length / EPISODES_PER_PAGE));
      const show = () => {
        episodes.replaceChildren(el('tr', {}, ...columns.map((t) => el('th', { scope: 'col' }, t))));
        for (const t of ts.slice(pageAt * EPISODES_PER_PAGE, (pageAt + 1) * EPISODES_PER_PAGE)) {
          episodes.append(el('tr', { class: t.hack_flags.length ? 'flagged' : undefined },
            el('td', {}, el('a', { href: runHref(name, 'trajectories', cur.phase, cur.step, t.index), 'aria-label': `episode ${t.index + 1}: ${t.task_id}` }, String(t.index + 1))),
            el('td', {}, t.task_id), ...(onePolicy === null ? [el('td', {}, t.policy)] : []), el('td', {}, String(t.turns)), el('td', {}, num(t.reward)),
            el('td', {}, t.end_reason.replace('_', ' ')), el('td', {}, t.tests_graded ? `${t.tests_passed} / ${t.tests_total}` : 'not run'),
            el('td', {}, ...t.hack_flags.map((f) => el('span', { class: 'hack-flag', title: HACK_FLAG_TEXT[f] ?? f }, f.replace('_', ' ')))),
          ));
        }
        pageText.textContent = `Page ${pageAt + 1} of ${pages} (episodes ${pageAt * EPISODES_PER_PAGE + 1}–${Math.min(ts.length, (pageAt + 1) * EPISODES_PER_PAGE)} of ${ts.length})`;
        prev.disabled = pageAt === 0;
        next.disabled = pageAt >= pages - 1;
      };
      pager.hidden = pages === 1;
      prev.addEventListener('click', () => ((pageAt = Math.max(0, pageAt - 1)), show()));
      next.addEventListener('click', () => ((pageAt = Math.min(pages - 1, pageAt + 1)), show()));
      show();
    } catch (e) {
      error.hidden = false;
      error.textContent = errorText(e);
    }
  })();
  return () => {};
}

/** The turn's text split at its command block: the reasoning before it, the block itself. */
function splitTurn(text: string): { reasoning: string; command: string } {
  const i = text.indexOf('```command');
  return i < 0 ? { reasoning: text, command: '' } : { reasoning: text.slice(0, i).trim(), command: text.slice(i).trim() };
}

function turnSummary(t: TurnRecord): string {
  if (t.format_error !== null) return `format error: ${t.format_error}`;
  const c = t.command!;
  const what = 'path' in c && c.path ? `${c.name} ${c.path}` : c.name;
  const status = t.status === 'ok' ? (c.name === 'run_tests' ? `exit ${t.exit_code}` : 'ok') : t.status;
  return `${what} → ${status}`;
}

const block = (label: string, text: string, cls = '') => el('div', { class: `turn-part ${cls}` }, el('h5', {}, label), el('pre', {}, text || '(empty)'));

function renderTurn(t: TurnRecord): HTMLElement {
  const { reasoning, command } = splitTurn(t.text);
  const li = el('li', { class: 'turn', 'data-status': t.status },
    el('h4', {}, `Turn ${t.index + 1}: ${turnSummary(t)}`, el('span', { class: 'timing' }, ` · policy ${(t.timing.policy_ms / 1000).toFixed(1)} s, sandbox ${(t.timing.exec_ms / 1000).toFixed(1)} s`)),
    ...(reasoning ? [block('Reasoning', reasoning, 'reasoning')] : []),
    block('Command', command || (t.format_error ? '(no command block)' : ''), 'command'),
  );
  if (t.status !== 'not_run' && t.command?.name !== 'submit') {
    li.append(block(`Observation${t.observation_cut ? ` (${t.observation_cut} characters cut)` : ''}`, t.observation, 'observation'));
  }
  return li;
}

function renderEpisodeBody(t: TrajectoryView): HTMLElement[] {
  const r = t.reward;
  const facts: [string, string][] = [
    ['task', t.task_id], ['policy', `${t.policy} (version ${t.policy_version})`], ['seed', String(t.seed)], ['sandbox', t.sandbox],
    ['end', `${t.end_reason.replace('_', ' ')} after ${t.turns.length} turn${t.turns.length === 1 ? '' : 's'}${t.error ? ` (${t.error})` : ''}`],
    ['reward', `${num(r.total, 4)} (tests ${r.tests}, length penalty ${num(r.length_penalty, 4)})`],
    ['tests', t.tests.graded === false ? 'not run (the episode did not submit)' : `${t.tests.passed.length} of ${t.tests.passed.length + t.tests.failed.length} pass${t.tests.timed_out ? ' (time limit hit)' : ''}${t.tests.problems?.length ? `; the report was not trusted: ${t.tests.problems.join('; ')}` : ''}`],
    ['hack flags', t.hack_flags?.length ? t.hack_flags.map((f) => `${f} (${HACK_FLAG_TEXT[f]})`).join('; ') : 'none'],
    ['context', `${t.context_used} ${t.budget_unit}, ${t.action_tokens} in assistant turns`],
  ];
  const dl = el('dl', { class: 'facts' });
  for (const [k, v] of facts) dl.append(el('dt', {}, k), el('dd', {}, v));
  return [
    dl,
    el('details', { class: 'issue' }, el('summary', {}, 'Issue (the first user message)'), el('pre', {}, t.prompt)),
    el('h3', {}, 'Turns'),
    el('ol', { class: 'turns', id: 'turns' }, ...t.turns.map(renderTurn)),
    el('h3', {}, 'Final diff'),
    el('pre', { class: 'diff', id: 'final-diff' }, t.final_diff.trimEnd() || '(no changes)'),
  ];
}

export function renderEpisode(root: HTMLElement, name: string, phase: string, step: number, index: number): () => void {
  const error = el('div', { class: 'error', role: 'alert', hidden: true });
  const body = el('div', { id: 'episode' });
  root.append(
    heading(`Episode ${index + 1} of ${stepLabel(phase, step)}`),
    el('p', {}, el('a', { href: runHref(name, 'trajectories', phase, step) }, `← episodes of ${stepLabel(phase, step)}`), ' · ', el('a', { href: runHref(name) }, `run ${name}`)),
    error,
    body,
  );
  void (async () => {
    try {
      const t = await trainer.readTrajectory(name, phase, step, index);
      if (!t) throw new Error(`run ${name} has no episode ${index + 1} in ${stepLabel(phase, step)}`);
      body.append(...renderEpisodeBody(t));
    } catch (e) {
      error.hidden = false;
      error.textContent = errorText(e);
    }
  })();
  return () => {};
}
