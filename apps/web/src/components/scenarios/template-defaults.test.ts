import { describe, expect, it } from 'vitest';
import { paramLabel, paramUnit } from './template-defaults';

describe('scenario parameter labels', () => {
  it('writes VUs as the abbreviation wherever it stands', () => {
    expect(paramLabel('vus')).toBe('VUs');
    expect(paramLabel('baselineVUs')).toBe('Baseline VUs');
    expect(paramLabel('maxVUs')).toBe('Max VUs');
    expect(paramLabel('holdMs')).toBe('Hold');
    expect(paramLabel('ratePerSec')).toBe('Rate');
  });
  it('says that durations accept units', () => {
    expect(paramUnit('durationMs')).toBe('ms, or 30s, 2m');
    expect(paramUnit('vus')).toBe('VUs');
  });
});
