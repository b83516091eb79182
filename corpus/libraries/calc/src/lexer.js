// Lexer for the calculator: numbers (with optional exponent), names and
// single character symbols.

export function lex(input) {
  const tokens = [];
  let i = 0;
  while (i < input.length) {
    const ch = input[i];
    if (ch === ' ' || ch === '\t' || ch === '\n') {
      i++;
    } else if ((ch >= '0' && ch <= '9') || ch === '.') {
      const start = i;
      while (i < input.length && ((input[i] >= '0' && input[i] <= '9') || input[i] === '.')) {
        i++;
      }
      if (input[i] === 'e' || input[i] === 'E') {
        let j = i + 1;
        if (input[j] === '+' || input[j] === '-') {
          j++;
        }
        if (input[j] >= '0' && input[j] <= '9') {
          i = j;
          while (i < input.length && input[i] >= '0' && input[i] <= '9') {
            i++;
          }
        }
      }
      const text = input.slice(start, i);
      const value = Number(text);
      if (Number.isNaN(value)) {
        throw new SyntaxError('Invalid number "' + text + '" at position ' + start);
      }
      tokens.push({ type: 'num', value, pos: start });
    } else if (/[A-Za-z_]/.test(ch)) {
      const start = i;
      while (i < input.length && /[A-Za-z_0-9]/.test(input[i])) {
        i++;
      }
      tokens.push({ type: 'name', value: input.slice(start, i), pos: start });
    } else if ('+-*/%^(),'.includes(ch)) {
      tokens.push({ type: ch, value: ch, pos: i });
      i++;
    } else {
      throw new SyntaxError('Unexpected character "' + ch + '" at position ' + i);
    }
  }
  tokens.push({ type: 'end', value: null, pos: input.length });
  return tokens;
}
