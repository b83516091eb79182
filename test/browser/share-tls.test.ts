// wss:// from Chromium against a shared-run server with TLS (the self-signed certificate `webswe share server`
// makes): the Contribute view connects and waits for the run's learner; a wrong password is refused by
// name; a browser that was not told to trust the certificate cannot connect, and the view says how to
// accept it. (Chromium is told to trust exactly this certificate's key: --ignore-certificate-errors-spki-list.)
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { CHROMIUM, CHROMIUM_ARGS, noBrowserReason, openAppPage } from '../helpers/browser.ts';
import { noNatsReason } from '../helpers/nats.ts';
import { startLocalServer, type LocalServer } from '../../src/share/local-server.node.ts';

describe.skipIf(noBrowserReason || noNatsReason)('a shared-run server over wss://', () => {
  let server: LocalServer;
  let trusting: Browser;
  const baseUrl = inject('baseUrl');
  const errors: string[] = [];

  beforeAll(async () => {
    server = await startLocalServer(1, { tls: true });
    const { chromium } = await import('playwright-core');
    trusting = await chromium.launch({ executablePath: CHROMIUM!, headless: true, args: [...CHROMIUM_ARGS, `--ignore-certificate-errors-spki-list=${server.tls!.spki}`] });
  });
  afterAll(async () => {
    await trusting?.close();
    await server?.stop();
  });

  const join = async (page: Page, pass: string) => {
    const c = server.contributors[0]!;
    await page.goto(`${baseUrl}#/contribute?server=${encodeURIComponent(server.wsUrl)}&run=nobody&user=${c.user}&pass=${encodeURIComponent(pass)}`);
    await page.waitForSelector('#contribute-form');
    await page.click('#contribute-start');
  };

  it('connects over wss:// and waits for the learner; a wrong password is refused by name', async () => {
    expect(server.wsUrl).toMatch(/^wss:\/\/127\.0\.0\.1:\d+$/);
    const page = await trusting.newPage();
    page.on('pageerror', (e) => errors.push(e.message));
    await join(page, server.contributors[0]!.password);
    await page.waitForFunction(() => /^(Connected; playing on|Waiting for the run's learner)/.test(document.querySelector('#contribute-status')?.textContent ?? ''), undefined, { timeout: 60_000 });
    await page.click('#contribute-stop');
    await page.waitForSelector('#contribute-status[data-error]', { timeout: 30_000 }).catch(async (e: Error) => {
      throw new Error(`${e.message}; status: ${await page.textContent('#contribute-status')}`);
    });
    expect(await page.textContent('#contribute-status')).toMatch(/^Not contributing: run nobody has no manifest on this server/);
    await join(page, 'not-the-password');
    await page.waitForSelector('#contribute-status[data-error]', { timeout: 30_000 });
    await page.waitForFunction(() => /refused user "c1"/.test(document.querySelector('#contribute-status')?.textContent ?? ''), undefined, { timeout: 30_000 });
    expect(errors).toEqual([]);
    await page.close();
  }, 120_000);

  it('without trusting the certificate, cannot connect, and says how to accept it', async () => {
    const { browser, page } = await openAppPage(errors);
    try {
      await join(page, server.contributors[0]!.password);
      await page.waitForSelector('#contribute-status[data-error]', { timeout: 60_000 });
      expect(await page.textContent('#contribute-status')).toMatch(/cannot reach the server at wss:\/\/127\.0\.0\.1:\d+.*open https:\/\/127\.0\.0\.1:\d+ in this browser once and accept it\.$/);
    } finally {
      await browser.close();
    }
  }, 120_000);
});
