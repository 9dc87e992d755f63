import { describe, expect, it } from 'vitest';
import { formatDurationInput, parseDurationMs } from './parse-duration';

describe('durations as people write them', () => {
  it('accepts plain milliseconds and units', () => {
    expect(parseDurationMs('1500')).toBe(1500);
    expect(parseDurationMs('1500ms')).toBe(1500);
    expect(parseDurationMs('30s')).toBe(30_000);
    expect(parseDurationMs('2.5s')).toBe(2500);
    expect(parseDurationMs('2m')).toBe(120_000);
    expect(parseDurationMs('1m30s')).toBe(90_000);
    expect(parseDurationMs(' 1 h ')).toBe(3_600_000);
    expect(parseDurationMs('')).toBeUndefined();
  });
  it('refuses what is not a duration', () => {
    for (const bad of ['abc', '30x', 's30', '1m30', '-5s'])
      expect(parseDurationMs(bad), bad).toBeNull();
  });
  it('writes a value back the short way, and reads it again to the same value', () => {
    for (const [ms, text] of [
      [120_000, '2m'],
      [30_000, '30s'],
      [1500, '1500ms'],
      [0, '0ms'],
    ] as const) {
      expect(formatDurationInput(ms)).toBe(text);
      expect(parseDurationMs(text)).toBe(ms);
    }
  });
});
