// Tokenizer for arithmetic expressions.
// Token: { type, value, start, end } where end is exclusive.

export class TokenizeError extends Error {
  constructor(message, position) {
    super(message + ' at position ' + position);
    this.name = 'TokenizeError';
    this.position = position;
  }
}

const OPERATORS = ['+', '-', '*', '/', '%', '^'];

function isDigit(ch) {
  return ch >= '0' && ch <= '9';
}

function isIdentStart(ch) {
  return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || ch === '_';
}

function isIdentPart(ch) {
  return isIdentStart(ch) || isDigit(ch);
}

function isSpace(ch) {
  return ch === ' ' || ch === '\t' || ch === '\n' || ch === '\r';
}

export function tokenize(input) {
  const tokens = [];
  let i = 0;
  while (i < input.length) {
    const ch = input[i];
    if (isSpace(ch)) {
      i++;
      continue;
    }
    const start = i;
    if (isDigit(ch) || (ch === '.' && isDigit(input[i + 1] || ''))) {
      let seenDot = false;
      while (i < input.length && (isDigit(input[i]) || input[i] === '.')) {
        if (input[i] === '.') {
          if (seenDot) {
            throw new TokenizeError('Unexpected second decimal point', i);
          }
          seenDot = true;
        }
        i++;
      }
      const text = input.slice(start, i);
      if (text.endsWith('.')) {
        throw new TokenizeError('Number cannot end with a decimal point', i - 1);
      }
      tokens.push({ type: 'number', value: Number(text), start, end: i });
    } else if (isIdentStart(ch)) {
      while (i < input.length && isIdentPart(input[i])) {
        i++;
      }
      tokens.push({ type: 'identifier', value: input.slice(start, i), start, end: i });
    } else if (OPERATORS.includes(ch)) {
      i++;
      tokens.push({ type: 'operator', value: ch, start, end: i });
    } else if (ch === '(' || ch === ')') {
      i++;
      tokens.push({ type: ch === '(' ? 'lparen' : 'rparen', value: ch, start, end: i });
    } else if (ch === ',') {
      i++;
      tokens.push({ type: 'comma', value: ch, start, end: i });
    } else {
      throw new TokenizeError('Unexpected character "' + ch + '"', i);
    }
  }
  return tokens;
}

export function checkParens(tokens) {
  let depth = 0;
  for (const token of tokens) {
    if (token.type === 'lparen') {
      depth++;
    } else if (token.type === 'rparen') {
      depth--;
      if (depth < 0) {
        throw new TokenizeError('Unmatched closing parenthesis', token.start);
      }
    }
  }
  if (depth > 0) {
    throw new TokenizeError('Unclosed parenthesis', tokens.length === 0 ? 0 : tokens[tokens.length - 1].end);
  }
  return true;
}

export function tokenTypes(input) {
  return tokenize(input).map((token) => token.type);
}

export function untokenize(tokens) {
  let out = '';
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i];
    if (i > 0 && token.type !== 'rparen' && token.type !== 'comma' && tokens[i - 1].type !== 'lparen') {
      out += ' ';
    }
    out += String(token.value);
  }
  return out;
}
