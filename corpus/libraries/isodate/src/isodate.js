const MONTH_DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

export function isLeapYear(year) {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

export function daysInMonth(year, month) {
  if (month < 1 || month > 12) {
    throw new RangeError('month must be 1-12');
  }
  if (month === 2 && isLeapYear(year)) {
    return 29;
  }
  return MONTH_DAYS[month - 1];
}

export function isValidDate(year, month, day) {
  if (!Number.isInteger(year) || !Number.isInteger(month) || !Number.isInteger(day)) {
    return false;
  }
  if (month < 1 || month > 12 || day < 1) {
    return false;
  }
  return day <= daysInMonth(year, month);
}

function readNumber(str, start, length) {
  let value = 0;
  for (let i = start; i < start + length; i++) {
    const code = str.charCodeAt(i) - 48;
    if (!(code >= 0 && code <= 9)) {
      throw new SyntaxError('expected digit at position ' + i);
    }
    value = value * 10 + code;
  }
  return value;
}

export function parseDate(str) {
  if (typeof str !== 'string' || (str.length !== 10 && str.length !== 20)) {
    throw new SyntaxError('expected YYYY-MM-DD or YYYY-MM-DDTHH:MM:SSZ');
  }
  if (str[4] !== '-' || str[7] !== '-') {
    throw new SyntaxError('expected dashes between date parts');
  }
  const result = {
    year: readNumber(str, 0, 4),
    month: readNumber(str, 5, 2),
    day: readNumber(str, 8, 2),
    hour: 0,
    minute: 0,
    second: 0,
  };
  if (str.length === 20) {
    if (str[10] !== 'T' || str[13] !== ':' || str[16] !== ':' || str[19] !== 'Z') {
      throw new SyntaxError('malformed time part');
    }
    result.hour = readNumber(str, 11, 2);
    result.minute = readNumber(str, 14, 2);
    result.second = readNumber(str, 17, 2);
    if (result.hour > 23 || result.minute > 59 || result.second > 59) {
      throw new RangeError('time out of range');
    }
  }
  if (!isValidDate(result.year, result.month, result.day)) {
    throw new RangeError('invalid calendar date: ' + str.slice(0, 10));
  }
  return result;
}

function pad(value, width) {
  let s = String(value);
  while (s.length < width) {
    s = '0' + s;
  }
  return s;
}

export function formatDate(date, withTime = false) {
  let out = pad(date.year, 4) + '-' + pad(date.month, 2) + '-' + pad(date.day, 2);
  if (withTime) {
    out += 'T' + pad(date.hour || 0, 2) + ':' + pad(date.minute || 0, 2) + ':' + pad(date.second || 0, 2) + 'Z';
  }
  return out;
}

export function dayOfYear(year, month, day) {
  let total = day;
  for (let m = 1; m < month; m++) {
    total += daysInMonth(year, m);
  }
  return total;
}

// days since 1970-01-01 (proleptic Gregorian calendar)
export function toDayNumber(year, month, day) {
  let days = 0;
  if (year >= 1970) {
    for (let y = 1970; y < year; y++) {
      days += isLeapYear(y) ? 366 : 365;
    }
  } else {
    for (let y = year; y < 1970; y++) {
      days -= isLeapYear(y) ? 366 : 365;
    }
  }
  return days + dayOfYear(year, month, day) - 1;
}

export function fromDayNumber(dayNumber) {
  let year = 1970;
  let rest = dayNumber;
  while (rest < 0) {
    year--;
    rest += isLeapYear(year) ? 366 : 365;
  }
  while (rest >= (isLeapYear(year) ? 366 : 365)) {
    rest -= isLeapYear(year) ? 366 : 365;
    year++;
  }
  let month = 1;
  while (rest >= daysInMonth(year, month)) {
    rest -= daysInMonth(year, month);
    month++;
  }
  return { year, month, day: rest + 1 };
}

export function addDays(str, count) {
  const d = parseDate(str);
  const result = fromDayNumber(toDayNumber(d.year, d.month, d.day) + count);
  return formatDate(result);
}

export function daysBetween(a, b) {
  const x = parseDate(a);
  const y = parseDate(b);
  return toDayNumber(y.year, y.month, y.day) - toDayNumber(x.year, x.month, x.day);
}

// ISO weekday: 1 = Monday ... 7 = Sunday. 1970-01-01 was a Thursday (4).
export function dayOfWeek(str) {
  const d = parseDate(str);
  const n = toDayNumber(d.year, d.month, d.day);
  return ((((n + 3) % 7) + 7) % 7) + 1;
}
