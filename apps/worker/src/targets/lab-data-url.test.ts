import { LAB_SETUP } from '@poolbench/db';
import { describe, expect, it } from 'vitest';
import { labDataUrl } from './managed-target';

const PG = 'postgresql://poolbench:p%40ss@127.0.0.1:54329/poolbench_lab?sslmode=disable';
const MARIA = 'mysql://poolbench:poolbench@127.0.0.1:33069/poolbench_lab';
const dbOf = (url: string) => decodeURIComponent(new URL(url).pathname.slice(1));

describe('labDataUrl: one lab database per data-set shape', () => {
  it('keeps the configured database for the default shape', () => {
    expect(labDataUrl(PG, LAB_SETUP, 'postgres')).toBe(PG);
    expect(labDataUrl(MARIA, LAB_SETUP, 'mariadb')).toBe(MARIA);
  });

  it('names every other shape, on the same server, user and options', () => {
    const url = new URL(labDataUrl(PG, { ...LAB_SETUP, rows: 1000, fields: 10 }, 'postgres'));
    expect(dbOf(url.toString())).toBe('poolbench_lab_1000x10_r50_p200_s4');
    expect(url.host).toBe('127.0.0.1:54329');
    expect(url.username).toBe('poolbench');
    expect(url.password).toBe('p%40ss');
    expect(url.searchParams.get('sslmode')).toBe('disable');
  });

  it('gives two shapes two databases whichever field differs', () => {
    const names = new Set(
      (['rows', 'fields', 'roles', 'permissions', 'shards'] as const).map((k) =>
        dbOf(labDataUrl(PG, { ...LAB_SETUP, [k]: LAB_SETUP[k] + 1 }, 'postgres')),
      ),
    );
    expect(names.size).toBe(5);
    expect(names.has('poolbench_lab')).toBe(false);
  });

  it('leaves shards out of a MariaDB name: MariaDB has no shard schemas', () => {
    expect(labDataUrl(MARIA, { ...LAB_SETUP, shards: 9 }, 'mariadb')).toBe(MARIA);
    expect(dbOf(labDataUrl(MARIA, { ...LAB_SETUP, fields: 40, shards: 9 }, 'mariadb'))).toBe(
      'poolbench_lab_10000x40_r50_p200',
    );
  });

  it('stays within a database name of 63 characters, keeping the whole shape', () => {
    const long = `postgresql://u:p@h:1/${'l'.repeat(80)}`;
    const widest = {
      rows: 5_000_000,
      fields: 200,
      roles: 10_000,
      permissions: 100_000,
      shards: 64,
    };
    const name = dbOf(labDataUrl(long, widest, 'postgres'));
    expect(name.length).toBeLessThanOrEqual(63);
    expect(name.endsWith('_5000000x200_r10000_p100000_s64')).toBe(true);
  });

  it('names a database when the URL names none', () => {
    expect(dbOf(labDataUrl('postgresql://u:p@h:1', { ...LAB_SETUP, rows: 100 }, 'postgres'))).toBe(
      'poolbench_lab_100x50_r50_p200_s4',
    );
  });
});
