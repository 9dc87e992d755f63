import { describe, expect, it } from 'vitest';
import { csvField, toCsv } from './csv';

describe('CSV cells (OWASP CSV injection)', () => {
  it('prefixes string cells that start a formula with a quote', () => {
    expect(csvField('=HYPERLINK("http://evil.example","x")')).toBe(
      `"'=HYPERLINK(""http://evil.example"",""x"")"`,
    );
    expect(csvField('+1+cmd|calc')).toBe("'+1+cmd|calc");
    expect(csvField('-2+3')).toBe("'-2+3");
    expect(csvField('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvField('\t=1')).toBe("'\t=1");
    expect(csvField('\r=1')).toBe(`"'\r=1"`);
    // a string that merely looks numeric is still a string from a user: neutralised too
    expect(csvField('-1')).toBe("'-1");
  });

  it('leaves numbers numeric, negative ones included, and harmless strings as they are', () => {
    expect(csvField(-3.5)).toBe('-3.5');
    expect(csvField(-0.001)).toBe('-0.001');
    expect(csvField(0)).toBe('0');
    expect(csvField(12)).toBe('12');
    expect(csvField(-12n)).toBe('-12');
    expect(csvField(Number.NaN)).toBe('');
    expect(csvField(null)).toBe('');
    expect(csvField('lazy-alpha #1')).toBe('lazy-alpha #1');
    expect(csvField('a=b')).toBe('a=b');
    expect(csvField('2026-11-23T20:00:00.000Z')).toBe('2026-11-23T20:00:00.000Z');
    expect(csvField('has, comma')).toBe('"has, comma"');
  });

  it('quotes cells with a semicolon, which `;`-separated spreadsheets split on', () => {
    expect(csvField('a;=1+1')).toBe('"a;=1+1"');
    expect(csvField('x;y')).toBe('"x;y"');
    expect(toCsv(['name'], [['lazy;=cmd|calc']])).toBe('name\r\n"lazy;=cmd|calc"\r\n');
  });

  it('a row keeps its columns', () => {
    expect(
      toCsv(
        ['group', 'delta'],
        [
          ['=1+1', -4],
          ['ok', 5],
        ],
      ),
    ).toBe("group,delta\r\n'=1+1,-4\r\nok,5\r\n");
  });
});
