// The New run form's agent.sandbox choice in the browser: worker (offline, the default) always; node never
// (only the CLI has node processes); webcontainer when this page can boot one. What the page can tell without
// booting (cross-origin isolation, offline) decides at once; choosing webcontainer then boots the page's
// container (the run would boot it anyway), and a boot that fails disables the choice and says why.
import { el, errorText } from '../dom.ts';

const webContainers = () => import('../../sandbox/webcontainer.browser.ts');

/** Wire the agent.sandbox select; returns the status line (id sandbox-availability, data-webcontainer). */
export function sandboxChoice(select: HTMLSelectElement): HTMLElement {
  const status = el('small', { id: 'sandbox-availability', role: 'status', 'data-webcontainer': 'unknown' });
  select.setAttribute('aria-describedby', `${select.getAttribute('aria-describedby') ?? ''} sandbox-availability`.trim());
  select.parentElement?.append(status);
  const option = (v: string) => [...select.options].find((o) => o.value === v);
  const node = option('node');
  if (node) {
    node.disabled = true;
    node.textContent = 'node (CLI only)';
  }
  const wc = option('webcontainer');
  if (!wc) return status;

  const show = (state: 'unknown' | 'unavailable' | 'checking' | 'ready', text: string) => {
    status.dataset.webcontainer = state;
    status.classList.toggle('error', state === 'unavailable');
    status.textContent = text;
  };
  const refuse = (reason: string) => {
    wc.disabled = true;
    wc.textContent = 'webcontainer (unavailable)';
    const chosen = select.value === 'webcontainer';
    if (chosen) {
      select.value = 'worker';
      select.dispatchEvent(new Event('change', { bubbles: true }));
    }
    show('unavailable', `WebContainer unavailable: ${reason}.${chosen ? ' agent.sandbox is back to worker.' : ''}`);
  };

  show('unknown', 'worker: offline, in this tab. webcontainer: boots from stackblitz.com when you choose it (needs the network).');
  void webContainers().then((m) => {
    const why = m.webContainerUnavailable();
    if (why) refuse(why);
  });
  let checking: Promise<void> | null = null;
  select.addEventListener('change', () => {
    if (select.value !== 'webcontainer' || checking) return;
    show('checking', 'Booting the WebContainer…');
    checking = webContainers()
      .then((m) => m.readyWebContainer())
      .then(
        () => show('ready', 'WebContainer ready: episodes will run in this page\'s container.'),
        (e: unknown) => refuse(errorText(e)),
      )
      .finally(() => (checking = null));
  });
  return status;
}
