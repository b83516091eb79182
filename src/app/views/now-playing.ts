// The episode being played right now, turn by turn as the worker sends them (workers/follow.ts): who
// plays it (the scripted expert, the policy's rollouts, an evaluation), the task, each action and what
// the sandbox answered, and how it ended. An ended episode stays up for a moment before the next one
// replaces it, so that its ending can be read.
import type { RunEvent } from '../../../workers/trainer.api.ts';
import { el } from '../dom.ts';

type TurnEvent = Extract<RunEvent, { type: 'turn' }>;
type EndEvent = Extract<RunEvent, { type: 'episode-end' }>;

/** Who plays an episode, in words. */
export const playedBy = (playing: string) =>
  playing === 'expert' ? 'the scripted expert (the episodes the base clones)'
  : playing === 'rft' ? 'the policy: RFT rollouts on a training task'
  : playing === 'dapo' ? 'the policy: DAPO rollouts on a training task'
  : playing.startsWith('eval-') ? `the policy after ${playing.slice(5)}: evaluation on a held-out task`
  : playing;

/** How long an ended episode stays before the next one takes its place. */
const HOLD_MS = 2000;

export function nowPlaying(): { element: HTMLElement; onEvent(e: RunEvent): void; destroy(): void } {
  const metaLine = el('p', { id: 'episode-meta' }, 'No episode yet: turns appear here as the run plays them.');
  const turns = el('ol', { id: 'episode-turns', class: 'turns' });
  const end = el('p', { id: 'episode-end', hidden: true });
  const element = el('section', { id: 'now-playing', 'aria-labelledby': 'episode-heading' },
    el('h3', { id: 'episode-heading' }, 'The episode being played'), metaLine, turns, end);
  let current: string | null = null;
  let holdUntil = 0;
  let queue: (TurnEvent | EndEvent)[] = [];
  let timer: ReturnType<typeof setTimeout> | undefined;

  const apply = (e: TurnEvent | EndEvent) => {
    if (e.type === 'turn') {
      if (e.episode !== current) {
        current = e.episode;
        turns.replaceChildren();
        end.hidden = true;
        element.dataset.episode = e.episode;
        metaLine.textContent = `${e.task} · played by ${playedBy(e.playing)}`;
      }
      const t = e.turn;
      turns.append(el('li', { class: 'turn', 'data-status': t.formatError ? 'format_error' : t.status },
        el('pre', { class: 'action' }, t.text),
        t.formatError ? el('p', { class: 'error' }, `format error: ${t.formatError}`) : el('pre', { class: 'observation' }, t.observation || '(no output)')));
      turns.scrollTop = turns.scrollHeight; // the box keeps the latest turn in sight
    } else if (e.episode === current) {
      end.hidden = false;
      end.dataset.solved = String(e.solved);
      turns.scrollTop = turns.scrollHeight;
      end.textContent = `Ended: ${e.endReason.replace('_', ' ')} · ${e.solved ? 'the tests pass' : 'the tests still fail'} · reward ${+e.reward.toFixed(3)}`;
      holdUntil = performance.now() + HOLD_MS;
    }
  };
  const flush = () => {
    timer = undefined;
    while (queue.length) {
      const e = queue[0]!;
      // A new episode waits until the ended one has been up for a moment.
      if (e.type === 'turn' && e.episode !== current && performance.now() < holdUntil) {
        timer = setTimeout(flush, holdUntil - performance.now());
        return;
      }
      apply(queue.shift()!);
    }
  };
  return {
    element,
    onEvent(e) {
      if (e.type !== 'turn' && e.type !== 'episode-end') return;
      queue.push(e);
      if (queue.length > 200) queue = queue.slice(-100); // a page in the background: keep the latest
      if (!timer) flush();
    },
    destroy: () => clearTimeout(timer),
  };
}
