// Recursive-descent evaluator for arithmetic expressions.
//   expr    := term (('+' | '-') term)*
//   term    := unary (('*' | '/' | '%') unary)*
//   unary   := ('-' | '+') unary | power
//   power   := primary ('^' unary)?
//   primary := number | name | name '(' args ')' | '(' expr ')'
import { lex } from './lexer.js';

const FUNCTIONS = {
  abs: (x) => Math.abs(x),
  min: (...xs) => Math.min(...xs),
  max: (...xs) => Math.max(...xs),
  sqrt: (x) => {
    if (x < 0) {
      throw new RangeError('Square root of a negative number');
    }
    return Math.sqrt(x);
  },
};

class Parser {
  constructor(input, variables) {
    this.tokens = lex(input);
    this.index = 0;
    this.variables = variables;
  }

  peek() {
    return this.tokens[this.index];
  }

  next() {
    const token = this.tokens[this.index];
    this.index++;
    return token;
  }

  expect(type) {
    const token = this.next();
    if (token.type !== type) {
      throw new SyntaxError('Expected "' + type + '" at position ' + token.pos);
    }
    return token;
  }

  expr() {
    let value = this.term();
    while (this.peek().type === '+' || this.peek().type === '-') {
      const op = this.next().type;
      const right = this.term();
      value = op === '+' ? value + right : value - right;
    }
    return value;
  }

  term() {
    let value = this.unary();
    while (this.peek().type === '*' || this.peek().type === '/' || this.peek().type === '%') {
      const op = this.next().type;
      const right = this.unary();
      if (op === '*') {
        value = value * right;
      } else {
        if (right === 0) {
          throw new RangeError('Division by zero');
        }
        value = op === '/' ? value / right : value % right;
      }
    }
    return value;
  }

  unary() {
    const type = this.peek().type;
    if (type === '-') {
      this.next();
      return -this.unary();
    }
    if (type === '+') {
      this.next();
      return this.unary();
    }
    return this.power();
  }

  power() {
    const base = this.primary();
    if (this.peek().type === '^') {
      this.next();
      return Math.pow(base, this.unary());
    }
    return base;
  }

  primary() {
    const token = this.next();
    if (token.type === 'num') {
      return token.value;
    }
    if (token.type === '(') {
      const value = this.expr();
      this.expect(')');
      return value;
    }
    if (token.type === 'name') {
      if (this.peek().type === '(') {
        return this.call(token);
      }
      if (!Object.prototype.hasOwnProperty.call(this.variables, token.value)) {
        throw new ReferenceError('Unknown variable: ' + token.value);
      }
      return this.variables[token.value];
    }
    throw new SyntaxError('Unexpected token "' + (token.value === null ? 'end' : token.value) + '" at position ' + token.pos);
  }

  call(nameToken) {
    const fn = FUNCTIONS[nameToken.value];
    if (!Object.prototype.hasOwnProperty.call(FUNCTIONS, nameToken.value)) {
      throw new ReferenceError('Unknown function: ' + nameToken.value);
    }
    this.expect('(');
    const args = [];
    if (this.peek().type !== ')') {
      args.push(this.expr());
      while (this.peek().type === ',') {
        this.next();
        args.push(this.expr());
      }
    }
    this.expect(')');
    if (args.length === 0) {
      throw new SyntaxError('Function ' + nameToken.value + ' needs at least one argument');
    }
    return fn(...args);
  }
}

export function evaluate(input, variables = {}) {
  const parser = new Parser(input, variables);
  if (parser.peek().type === 'end') {
    throw new SyntaxError('Empty expression');
  }
  const value = parser.expr();
  const rest = parser.peek();
  if (rest.type !== 'end') {
    throw new SyntaxError('Unexpected token "' + rest.value + '" at position ' + rest.pos);
  }
  return value;
}
