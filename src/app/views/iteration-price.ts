// What the paper's setting (the qwen-coder-lora run preset: Qwen2.5-Coder-0.5B with LoRA, RFT and DAPO) costs on
// this device, a DAPO iteration at a time: on the first screen and in the Model view. Measuring the 0.5 B
// shape takes under a minute and ~2 GB on a CPU, so it runs when asked (a button), not on opening the view.
// The worker measures (workers/estimate.ts iterationOnDevice); this says what it found (src/rl/iteration.ts
// iterationLines: the figures it was priced on and the assumption that makes it an "at most").
import { trainer } from '../client.ts';
import { el, errorText } from '../dom.ts';
import { iterationLines } from '../../rl/iteration.ts';

/** The run preset priced: the paper's setting in small. */
export const PAPER_PRESET = 'qwen-coder-lora';

/** The section: a button that measures, then the price (data-seconds: one round and the update; data-max-seconds: every round). */
export function iterationPriceSection(): { section: HTMLElement; close: () => void } {
  const button = el('button', { type: 'button', id: 'iteration-measure' }, `Measure what ${PAPER_PRESET} costs here`);
  const result = el('p', { id: 'iteration-price', 'aria-live': 'polite', 'data-seconds': '' });
  const details = el('ul', { id: 'iteration-parts' });
  const section = el('section', { 'aria-labelledby': 'iteration-heading' },
    el('h3', { id: 'iteration-heading' }, 'The paper\'s setting on this device'),
    el('p', {}, `${PAPER_PRESET} trains Qwen2.5-Coder-0.5B-Instruct with LoRA by RFT, then DAPO, on the library tasks. `,
      'Measuring its shape here (random weights, nothing downloaded) takes under a minute and about 2 GB of memory on a CPU.'),
    el('div', { class: 'controls' }, button), result, details);
  let closed = false;
  button.addEventListener('click', async () => {
    button.disabled = true;
    result.textContent = `Measuring the 0.5 B shape on this device…`;
    details.replaceChildren();
    try {
      const e = await trainer.estimateIteration(PAPER_PRESET, 'auto');
      if (closed) return;
      const [head, ...rest] = iterationLines(e);
      result.textContent = head!;
      result.dataset.seconds = String(Math.round(e.roundS + e.updateS));
      result.dataset.maxSeconds = String(Math.round(e.seconds));
      details.replaceChildren(...rest.map((l) => el('li', {}, l)));
    } catch (err) {
      if (!closed) result.textContent = `Could not measure: ${errorText(err)}`;
    } finally {
      button.disabled = false;
    }
  });
  return { section, close: () => void (closed = true) };
}
