import { describe, expect, it } from 'vitest';
import { LruCache } from './finished-data-cache';

describe('LruCache', () => {
  it('forgets the least recently used entry past its size; a read counts as a use', () => {
    const c = new LruCache<number>(2);
    c.set('a', 1);
    c.set('b', 2);
    expect(c.get('a')).toBe(1);
    c.set('c', 3);
    expect(c.get('b')).toBeUndefined();
    expect(c.get('a')).toBe(1);
    expect(c.get('c')).toBe(3);
  });

  it('getOrMake makes a value once and answers the kept one after; a failure keeps nothing', async () => {
    const c = new LruCache<string>(10);
    let made = 0;
    const make = async () => `value ${++made}`;
    expect(await c.getOrMake('k', make)).toBe('value 1');
    expect(await c.getOrMake('k', make)).toBe('value 1');
    expect(made).toBe(1);
    await expect(
      c.getOrMake('bad', () => Promise.reject(new Error('the database is down'))),
    ).rejects.toThrow('the database is down');
    expect(c.get('bad')).toBeUndefined();
    expect(await c.getOrMake('bad', make)).toBe('value 2');
  });
});
