// Contribute: donate this tab's backend to someone else's shared run (docs/sharing.md). Open a join link
// (#/contribute?server=ws://…&run=…&user=…&pass=…, printed by `webswe share config`) or fill in the form;
// the trainer worker then plays the run's work items here and sends the results back. The view shows each
// item as it is done, what the learner has accepted of them (its verdicts, after its verification), and
// a Stop button (the current item finishes; the rest go to other contributors).
import * as Comlink from 'comlink';
import type { ContributeListener } from '../../../workers/trainer.api.ts';
import { trainer } from '../client.ts';
import { el } from '../dom.ts';
import { REJECT_WORDS, type RejectReason } from '../../share/protocol.ts';

/** The join link's fields, from the hash's query (#/contribute?server=…). */
export function joinFields(hash: string): Record<'server' | 'run' | 'user' | 'pass', string> {
  const q = new URLSearchParams(hash.includes('?') ? hash.slice(hash.indexOf('?') + 1) : '');
  return { server: q.get('server') ?? '', run: q.get('run') ?? '', user: q.get('user') ?? '', pass: q.get('pass') ?? '' };
}

export function renderContribute(root: HTMLElement): () => void {
  const f = joinFields(location.hash);
  const input = (id: string, label: string, value: string, type = 'text') =>
    el('label', {}, label, ' ', el('input', { id, name: id, type, value, required: true, autocomplete: 'off', size: 40 }));
  const start = el('button', { id: 'contribute-start', type: 'submit' }, 'Start contributing');
  const stop = el('button', { id: 'contribute-stop', type: 'button', disabled: true }, 'Stop');
  const form = el('form', { id: 'contribute-form' },
    input('contribute-server', 'Server (WebSocket)', f.server || 'ws://127.0.0.1:8080'), el('br'),
    input('contribute-run', 'Run', f.run), el('br'),
    input('contribute-user', 'User', f.user), el('br'),
    input('contribute-pass', 'Password', f.pass, 'password'), el('br'),
    start, ' ', stop);
  const status = el('p', { id: 'contribute-status', role: 'status' }, 'Not contributing.');
  const acceptance = el('p', { id: 'contribute-acceptance' }, 'The learner has not judged any of your results yet.');
  const items = el('ol', { id: 'contribute-items' });
  root.append(
    el('h2', { class: 'view-heading', tabindex: -1 }, 'Contribute to a shared run'),
    el('p', {}, "This tab plays episodes of someone else's run with its current weights, on this device, and sends them back; the learner re-runs every episode's tests and checks every sampled token before it trains on any of it."),
    form, status, acceptance, el('h3', {}, 'Work items done here'), items,
  );
  let done = { items: 0, episodes: 0, solved: 0 };
  let alive = true;
  const value = (id: string) => (form.querySelector<HTMLInputElement>(`#${id}`)?.value ?? '').trim();
  const listener: ContributeListener = (e) => {
    if (!alive) return;
    if (e.kind === 'backend') status.textContent = `Connected; playing on ${e.name}. Waiting for work…`;
    if (e.kind === 'joined') status.textContent = `Joined run ${e.run} (model: ${e.model}). Waiting for work…`;
    if (e.kind === 'waiting') status.textContent = `Waiting for the run's learner to start (${Math.round(e.seconds)} s)…`;
    if (e.kind === 'idle') status.textContent = `Waiting for work (${Math.round(e.seconds)} s idle)…`;
    if (e.kind === 'item') {
      done = { items: done.items + 1, episodes: done.episodes + e.episodes, solved: done.solved + e.solved };
      items.append(el('li', { 'data-item': e.item }, `${e.item} (policy v${e.version}): ${e.episodes} episodes, ${e.solved} solved, ${e.seconds.toFixed(1)} s`));
      status.textContent = `Contributing: ${done.items} work items done (${done.episodes} episodes, ${done.solved} solved).`;
    }
    if (e.kind === 'acceptance') {
      const total = e.accepted + e.rejected;
      const why = Object.entries(e.byReason ?? {}).filter(([, n]) => n > 0).map(([r, n]) => `${n} ${r.replace('_', ' ')}: ${REJECT_WORDS[r as RejectReason] ?? r}`);
      acceptance.textContent = `The learner accepted ${e.accepted} of your ${total} results (${total ? Math.round((100 * e.accepted) / total) : 0} %)${e.rejected ? `; it rejected ${e.rejected} (${why.join('; ')})` : ''}.`;
      acceptance.dataset.accepted = String(e.accepted);
      acceptance.dataset.rejected = String(e.rejected);
    }
  };
  form.addEventListener('submit', (ev) => {
    ev.preventDefault();
    start.disabled = true;
    stop.disabled = false;
    status.textContent = 'Connecting…';
    trainer
      .contribute({ server: value('contribute-server'), run: value('contribute-run'), user: value('contribute-user'), password: value('contribute-pass') }, Comlink.proxy(listener))
      .then((s) => alive && (status.textContent = `Stopped after ${s.items} work items (${s.episodes} episodes, ${s.solved} solved).`))
      .catch((e: Error) => alive && ((status.textContent = `Not contributing: ${e.message}`), status.setAttribute('data-error', '')))
      .finally(() => {
        if (!alive) return;
        start.disabled = false;
        stop.disabled = true;
      });
  });
  stop.addEventListener('click', () => {
    stop.disabled = true;
    status.textContent = 'Stopping after the current work item…';
    void trainer.stopContributing();
  });
  return () => {
    alive = false;
  };
}
