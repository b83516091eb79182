// A run config's agent and reward sections as the episode loop's options (src/agent/episode.ts): the
// one place where the run's settings become how episodes are played, so the agent layer needs no
// knowledge of the run config.
import type { EpisodeOptions } from '../agent/episode.ts';
import type { RunConfig } from './config.ts';

/** Episode options from a resolved run config (agent.* and reward.*); L_max is the context budget. */
export function episodeOptions(c: RunConfig, extra: Partial<EpisodeOptions> = {}): EpisodeOptions {
  return {
    maxTurns: c.agent.maxTurns,
    contextTokens: c.agent.contextTokens,
    observationTokens: c.agent.observationTokens,
    actionTokens: c.agent.actionTokens,
    commandTimeoutMs: c.agent.commandTimeoutMs,
    sandbox: c.agent.sandbox,
    systemPrompt: c.agent.systemPrompt,
    editCommand: c.agent.editCommand,
    testReport: c.agent.testReport,
    viewHints: c.agent.viewHints,
    triedHints: c.agent.triedHints,
    triedOnRefusal: c.agent.triedOnRefusal,
    retryFixes: c.agent.retryFixes,
    subTests: c.agent.subTests,
    overlap: c.agent.overlap === true,
    gradeUnsubmitted: c.agent.gradeUnsubmitted,
    reward: {
      lengthThreshold: c.reward.lengthThreshold,
      lengthPenalty: c.reward.lengthPenalty,
    },
    ...extra,
  };
}
