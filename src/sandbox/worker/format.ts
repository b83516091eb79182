// util.format as Node 20 prints it, for the worker sandbox's console: printf-style directives over the
// arguments, then the rest inspected (inspect.ts) and joined by spaces. Core code: no DOM, no Node.
import { formatNumber, inspect } from './inspect.ts';

/** util.format(...args): printf-style %s %d %i %f %j %o %O %c %%, then the rest inspected and joined by spaces. */
export function format(...args: unknown[]): string {
  const first = args[0];
  let a = 0;
  let str = '';
  let join = '';
  if (typeof first === 'string') {
    if (args.length === 1) return first;
    let lastPos = 0;
    for (let i = 0; i < first.length - 1; i++) {
      if (first.charCodeAt(i) !== 37) continue; // '%'
      const next = first[++i];
      if (a + 1 !== args.length) {
        let piece: string;
        const arg = args[a + 1];
        switch (next) {
          case 's':
            if (typeof arg === 'number') piece = formatNumber(arg);
            else if (typeof arg === 'bigint') piece = `${arg}n`;
            else if (typeof arg !== 'object' || arg === null || Object.prototype.hasOwnProperty.call(arg, 'toString')) piece = String(arg);
            else piece = inspect(arg, { depth: 0 });
            break;
          case 'j':
            try {
              piece = String(JSON.stringify(arg));
            } catch {
              piece = '[Circular]';
            }
            break;
          case 'd':
            piece = typeof arg === 'bigint' ? `${arg}n` : typeof arg === 'symbol' ? 'NaN' : formatNumber(Number(arg));
            break;
          case 'i':
            piece = typeof arg === 'bigint' ? `${arg}n` : typeof arg === 'symbol' ? 'NaN' : formatNumber(parseInt(String(arg)));
            break;
          case 'f':
            piece = typeof arg === 'symbol' ? 'NaN' : formatNumber(parseFloat(String(arg)));
            break;
          case 'o':
            piece = inspect(arg, { depth: 4 });
            break;
          case 'O':
            piece = inspect(arg);
            break;
          case 'c':
            piece = '';
            break;
          case '%':
            str += first.slice(lastPos, i);
            lastPos = i + 1;
            continue;
          default:
            continue;
        }
        a++;
        if (lastPos !== i - 1) str += first.slice(lastPos, i - 1);
        str += piece;
        lastPos = i + 1;
      } else if (next === '%') {
        str += first.slice(lastPos, i);
        lastPos = i + 1;
      }
    }
    if (lastPos !== 0) {
      a++;
      join = ' ';
      if (lastPos < first.length) str += first.slice(lastPos);
    }
  }
  while (a < args.length) {
    const v = args[a++];
    str += join + (typeof v === 'string' ? v : inspect(v));
    join = ' ';
  }
  return str;
}
