// Color parsing and manipulation for sRGB colors.

function clamp(value, min, max) {
  if (value < min) {
    return min;
  }
  if (value > max) {
    return max;
  }
  return value;
}

export function parseHex(text) {
  let hex = String(text).trim();
  if (hex[0] === '#') {
    hex = hex.slice(1);
  }
  if (!/^[0-9a-fA-F]+$/.test(hex) || (hex.length !== 3 && hex.length !== 6)) {
    throw new Error('Invalid hex color: ' + text);
  }
  if (hex.length === 3) {
    hex = hex[0] + hex[0] + hex[1] + hex[1] + hex[2] + hex[2];
  }
  return {
    r: parseInt(hex.slice(0, 2), 16),
    g: parseInt(hex.slice(2, 4), 16),
    b: parseInt(hex.slice(4, 6), 16),
  };
}

export function parseRgb(text) {
  const match = /^rgb\(\s*(\d+)\s*,\s*(\d+)\s*,\s*(\d+)\s*\)$/i.exec(String(text).trim());
  if (match === null) {
    throw new Error('Invalid rgb color: ' + text);
  }
  const parts = [Number(match[1]), Number(match[2]), Number(match[3])];
  for (const part of parts) {
    if (part > 255) {
      throw new Error('Channel out of range: ' + part);
    }
  }
  return { r: parts[0], g: parts[1], b: parts[2] };
}

export function parseColor(text) {
  return String(text).trim().toLowerCase().startsWith('rgb') ? parseRgb(text) : parseHex(text);
}

function toHexPart(value) {
  const n = clamp(Math.round(value), 0, 255);
  return (n < 16 ? '0' : '') + n.toString(16);
}

export function toHex(color) {
  return '#' + toHexPart(color.r) + toHexPart(color.g) + toHexPart(color.b);
}

export function rgbToHsl(color) {
  const r = color.r / 255;
  const g = color.g / 255;
  const b = color.b / 255;
  const max = Math.max(r, g, b);
  const min = Math.min(r, g, b);
  const l = (max + min) / 2;
  let h = 0;
  let s = 0;
  if (max !== min) {
    const d = max - min;
    s = l > 0.5 ? d / (2 - max - min) : d / (max + min);
    if (max === r) {
      h = (g - b) / d + (g < b ? 6 : 0);
    } else if (max === g) {
      h = (b - r) / d + 2;
    } else {
      h = (r - g) / d + 4;
    }
    h *= 60;
  }
  return { h: Math.round(h), s: Math.round(s * 100), l: Math.round(l * 100) };
}

function hueToChannel(p, q, t) {
  let x = t;
  if (x < 0) x += 1;
  if (x > 1) x -= 1;
  if (x < 1 / 6) return p + (q - p) * 6 * x;
  if (x < 1 / 2) return q;
  if (x < 2 / 3) return p + (q - p) * (2 / 3 - x) * 6;
  return p;
}

export function hslToRgb(hsl) {
  const h = (((hsl.h % 360) + 360) % 360) / 360;
  const s = clamp(hsl.s, 0, 100) / 100;
  const l = clamp(hsl.l, 0, 100) / 100;
  if (s === 0) {
    const v = Math.round(l * 255);
    return { r: v, g: v, b: v };
  }
  const q = l < 0.5 ? l * (1 + s) : l + s - l * s;
  const p = 2 * l - q;
  return {
    r: Math.round(hueToChannel(p, q, h + 1 / 3) * 255),
    g: Math.round(hueToChannel(p, q, h) * 255),
    b: Math.round(hueToChannel(p, q, h - 1 / 3) * 255),
  };
}

export function lighten(text, amount) {
  const hsl = rgbToHsl(parseColor(text));
  return toHex(hslToRgb({ h: hsl.h, s: hsl.s, l: clamp(hsl.l + amount, 0, 100) }));
}

export function darken(text, amount) {
  return lighten(text, -amount);
}

function channelLuminance(value) {
  const c = value / 255;
  return c <= 0.03928 ? c / 12.92 : Math.pow((c + 0.055) / 1.055, 2.4);
}

export function luminance(color) {
  return 0.2126 * channelLuminance(color.r) + 0.7152 * channelLuminance(color.g) + 0.0722 * channelLuminance(color.b);
}

export function contrastRatio(a, b) {
  const la = luminance(parseColor(a));
  const lb = luminance(parseColor(b));
  const light = Math.max(la, lb);
  const dark = Math.min(la, lb);
  return Math.round(((light + 0.05) / (dark + 0.05)) * 100) / 100;
}
