import { describe, expect, it } from 'vitest';
import { parsePrometheusText, sumOf } from './prometheus-text';

describe('parsePrometheusText', () => {
  it('reads labelled series, sums them, and skips comments', () => {
    const s = parsePrometheusText(
      [
        '# HELP labtarget_pool_total_conns x',
        '# TYPE labtarget_pool_total_conns gauge',
        'labtarget_pool_total_conns{pool="shard-0"} 3',
        'labtarget_pool_total_conns{pool="shard-1",note="a \\"q\\""} 4',
        'process_resident_memory_bytes 1.2e+07',
        'labtarget_pool_acquire_wait_seconds_bucket{le="+Inf"} 9',
      ].join('\n'),
    );
    expect(sumOf(s, 'labtarget_pool_total_conns')).toBe(7);
    expect(sumOf(s, 'labtarget_pool_total_conns', (l) => l.pool === 'shard-1')).toBe(4);
    expect(s.get('labtarget_pool_total_conns')![1]!.labels.note).toBe('a "q"');
    expect(sumOf(s, 'process_resident_memory_bytes')).toBe(12_000_000);
    expect(sumOf(s, 'missing')).toBeNull();
  });
});
