// The episode the live view watches: of all the episodes a run plays at once, the worker follows one
// from its first turn to its end and sends only that one's turns to the page (a DAPO batch plays
// hundreds of turns a minute; one episode's few turns are what a person can read). When it ends, the
// next episode to start is followed.
import type { TurnRecord } from '../src/agent/trajectory.ts';
import type { EpisodeTurn, RunEvent } from './trainer.api.ts';

/** What the page shows of a turn: the action as written, the observation cut to a readable size. */
export function briefTurn(t: TurnRecord): EpisodeTurn {
  // Cut at a line's end where one is near, so that a view's line keeps its number and its words whole.
  const cut = (s: string, n: number) => {
    if (s.length <= n) return s;
    const head = s.slice(0, n), nl = head.lastIndexOf('\n');
    return `${nl > n / 2 ? head.slice(0, nl + 1) : head}…`;
  };
  return { index: t.index, text: cut(t.text, 400), observation: cut(t.observation, 800), status: t.status, formatError: t.format_error };
}

export function episodeFollower(run: string, emit: (e: RunEvent) => void) {
  let following: string | null = null;
  return {
    turn(e: { episode: string; task: string; playing: string; turn: TurnRecord }): void {
      if (following === null && e.turn.index === 0) following = e.episode;
      if (e.episode !== following) return;
      emit({ type: 'turn', run, episode: e.episode, task: e.task, playing: e.playing, turn: briefTurn(e.turn) });
    },
    end(e: { episode: string; task: string; playing: string; endReason: string; solved: boolean; reward: number }): void {
      if (e.episode !== following) return;
      following = null;
      emit({ type: 'episode-end', run, ...e });
    },
  };
}
