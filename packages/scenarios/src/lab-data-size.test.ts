import { describe, expect, it } from 'vitest';
import {
  formatBytes,
  LAB_DATA_CELLS_CAP_DEFAULT,
  labDataBytes,
  labDataCellsCap,
  labDataTooLarge,
} from './lab-data-size';

describe('lab data size', () => {
  it('estimates the measured shapes within 5 %', () => {
    expect(labDataBytes({ rows: 10_000, fields: 40 }) / 33_586_535).toBeCloseTo(1, 1);
    expect(labDataBytes({ rows: 10_000, fields: 50 }) / 43_162_983).toBeCloseTo(1, 1);
  });

  it('refuses the 5 000 000 × 200 shape by default, naming cells, cap and disk', () => {
    const cap = labDataCellsCap({});
    expect(cap).toBe(LAB_DATA_CELLS_CAP_DEFAULT);
    const why = labDataTooLarge({ rows: 5_000_000, fields: 200 }, cap);
    expect(why).toBe(
      '5,000,000 rows × 200 fields = 1,000,000,000 cells (about 84 GB on the lab database server) ' +
        'is more than this installation allows: 10,000,000 cells (about 840 MB; LAB_MAX_DATA_CELLS)',
    );
    expect(labDataTooLarge({ rows: 10_000, fields: 40 }, cap)).toBeNull();
    expect(labDataTooLarge({ rows: 100_000, fields: 100 }, cap)).toBeNull();
  });

  it('takes the installation cap from the environment, ignoring nonsense', () => {
    expect(labDataCellsCap({ LAB_MAX_DATA_CELLS: '2000000000' })).toBe(2_000_000_000);
    expect(labDataCellsCap({ LAB_MAX_DATA_CELLS: 'lots' })).toBe(LAB_DATA_CELLS_CAP_DEFAULT);
    expect(labDataCellsCap({ LAB_MAX_DATA_CELLS: '-1' })).toBe(LAB_DATA_CELLS_CAP_DEFAULT);
  });

  it('formats sizes as people read them', () => {
    expect(formatBytes(999)).toBe('999 B');
    expect(formatBytes(33_600_000)).toBe('33.6 MB');
    expect(formatBytes(84_000_000_000)).toBe('84 GB');
    expect(formatBytes(840_000_000)).toBe('840 MB');
    expect(formatBytes(1_000_000)).toBe('1 MB');
  });
});
