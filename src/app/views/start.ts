// The first screen: what webswe is, one button that starts the run that learns on this device (the
// micro preset on 96 held-out tasks, on the backend `auto` picks: on a hardware adapter the faster for this run, measured, else the CPU backend), how
// long it will take here (a few seconds of measurement in the trainer worker, workers/estimate.ts, not
// a constant), and what the user will see. The full form stays one link away ("Advanced"), and what the
// paper's setting (Qwen2.5-Coder-0.5B with LoRA) would cost here one button away (iteration-price.ts).
import type { DeviceEstimate } from '../../../workers/trainer.api.ts';
import { trainer } from '../client.ts';
import { duration, el, errorText, heading, runHref } from '../dom.ts';
import { askPersistence } from '../storage.ts';
import { phaseTotals } from '../../rl/estimate.ts';
import type { ConfigValue } from '../../rl/config.ts';
import { iterationPriceSection } from './iteration-price.ts';

/** The run the first screen starts: the preset the learning work established (src/rl/presets.ts)… */
export const START_PRESET = 'micro';
/** …evaluated on one held-out task a function (96 of the 444 the CLI's table uses), so that each phase's reading
 *  comes sooner, and with the pass-rate probe every 200 base steps (8 held-out tasks), so that the pass-rate curve
 *  moves from the first minutes. The training is the preset's, step for step; the readings are noisier (the std
 *  grows as 1/√N). */
export const START_OVERRIDES: Readonly<Record<string, ConfigValue>> = Object.freeze({ 'tasks.maxTest': 96, 'eval.probeEvery': 200 });

export function renderStart(root: HTMLElement): () => void {
  const estimate = el('p', { id: 'start-estimate', 'aria-live': 'polite', 'data-seconds': '' }, 'Measuring this device for a few seconds to say how long the run takes here…');
  const parts = el('ul', { id: 'start-estimate-parts', class: 'inline-list' });
  const button = el('button', { type: 'button', id: 'start-learning', class: 'primary' }, 'Start the run that learns');
  const error = el('div', { class: 'error', role: 'alert', hidden: true });
  const price = iterationPriceSection();
  root.append(
    heading('Watch an agent learn to fix bugs'),
    el('p', { class: 'lede' },
      'webswe trains a small language-model agent to fix one-token bugs in short JavaScript functions, with the tests as its only reward: ',
      'it first imitates a scripted expert (base), then keeps its own successful episodes (RFT), then learns from its own attempts by reinforcement (DAPO). ',
      'Everything runs in this tab: the model on your GPU or CPU, each repository in a sandbox worker.'),
    el('section', { 'aria-labelledby': 'start-run-heading' },
      el('h3', { id: 'start-run-heading' }, 'The run'),
      estimate, parts,
      el('div', { class: 'controls' }, button, el('a', { href: '#/new', id: 'start-advanced' }, 'Advanced: every setting')),
      error),
    el('section', { 'aria-labelledby': 'start-see-heading' },
      el('h3', { id: 'start-see-heading' }, 'What you will see'),
      el('ul', {},
        el('li', {}, 'The episode being played, turn by turn: the command the agent writes, what the sandbox answers, and whether the tests pass at the end.'),
        el('li', {}, 'Curves over time: reward, pass rate of the rollouts, loss, entropy and the clipping of the DAPO update, with the phases as bands.'),
        el('li', {}, 'After each phase, pass@1 on held-out functions the agent never trained on: the number that says whether it learned.'),
        el('li', {}, 'Every episode afterwards in Trajectories; Stop keeps a checkpoint, and Resume continues from it.'))),
    price.section,
  );

  let closed = false;
  /** The rates measured here: the run the button starts prices its time left at them (one estimator). */
  let rates: DeviceEstimate['rates'] | undefined;
  void trainer.estimateRun(START_PRESET, 'auto', { ...START_OVERRIDES }).then(
    (e: DeviceEstimate) => {
      if (closed) return;
      rates = e.rates;
      estimate.dataset.seconds = String(Math.round(e.totalS));
      estimate.textContent = `The ${e.preset} run takes about ${duration(e.totalS)} on this device (${e.backend}), measured in ${e.measuredInS.toFixed(1)} s.`;
      const named: Record<string, string> = { base: 'base: cloning the expert, then evaluation', rft: 'RFT: rollouts, update, evaluation', dapo: 'DAPO: iterations, then evaluation' };
      parts.replaceChildren(...phaseTotals(e).map((p) => el('li', { 'data-phase': p.phase }, `${named[p.phase] ?? p.phase}: ${duration(p.seconds)}`)));
    },
    (e: unknown) => {
      if (closed) return;
      estimate.textContent = `Could not measure this device: ${errorText(e)}. The run still starts; its progress shows the time left.`;
    },
  );

  button.addEventListener('click', async () => {
    button.disabled = true;
    error.hidden = true;
    try {
      const persisted = await askPersistence();
      const run = await trainer.startRun({ preset: START_PRESET, overrides: { ...START_OVERRIDES }, backend: 'auto', persisted, ...(rates ? { rates } : {}) });
      location.hash = runHref(run.name);
    } catch (e) {
      error.hidden = false;
      error.textContent = errorText(e);
      button.disabled = false;
    }
  });
  return () => {
    closed = true;
    price.close();
  };
}
