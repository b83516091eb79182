// The audit draw (learner.ts): a result is audited with probability p, independently across users, items and
// attempts, and the draw is a function of the learner's secret (a contributor that does not know it cannot tell).
import { describe, expect, it } from 'vitest';
import { auditDraw } from '../../../src/share/learner.ts';

const secret = new TextEncoder().encode('audit-draw-test');

describe('auditDraw', () => {
  it('audits a share p of results, every one at p = 1 and none at p = 0', async () => {
    const keys = Array.from({ length: 4000 }, (_, i) => [`c${i % 40}`, `dapo/0/${i % 7}/${Math.floor(i / 40)}`, i % 3] as const);
    const rate = async (p: number) => (await Promise.all(keys.map(([u, item, a]) => auditDraw(secret, u, item, a, p)))).filter(Boolean).length / keys.length;
    expect(await rate(1)).toBe(1);
    expect(await rate(0)).toBe(0);
    // 4,000 draws: the binomial std at p = 0.3 is 0.0072; 0.03 is four of them.
    expect(Math.abs((await rate(0.3)) - 0.3)).toBeLessThan(0.03);
    expect(Math.abs((await rate(0.05)) - 0.05)).toBeLessThan(0.014);
  });

  it('depends on the secret, the user, the item and the attempt', async () => {
    const draws = async (f: (i: number) => [Uint8Array, string, string, number]) =>
      (await Promise.all(Array.from({ length: 64 }, (_, i) => auditDraw(...f(i), 0.5)))).map(Number).join('');
    const bySecret = await draws((i) => [new TextEncoder().encode(`s${i}`), 'c1', 'x/0', 0]);
    const byUser = await draws((i) => [secret, `c${i}`, 'x/0', 0]);
    const byItem = await draws((i) => [secret, 'c1', `x/${i}`, 0]);
    const byAttempt = await draws((i) => [secret, 'c1', 'x/0', i]);
    for (const d of [bySecret, byUser, byItem, byAttempt]) {
      expect(d).toMatch(/0/);
      expect(d).toMatch(/1/);
    }
    // The same key draws the same every time.
    expect(await auditDraw(secret, 'c1', 'x/0', 2, 0.5)).toBe(await auditDraw(secret, 'c1', 'x/0', 2, 0.5));
  });
});
