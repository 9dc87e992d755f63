/**
 * The one tar operation the sandbox needs: replace `metadata.json` in a k6 archive. A k6 archive
 * is a tar (Go's archive/tar) whose `metadata.json` holds the options `k6 run archive.tar` uses
 * as the script's options; every other entry is copied byte for byte. The archive was written by
 * k6 inside a sandbox from a user's script, so it is parsed as untrusted data: anything this
 * reader does not understand is refused, never guessed.
 */

const BLOCK = 512;
const METADATA = 'metadata.json';

export class ArchiveFormatError extends Error {
  constructor(message: string) {
    super(`not a k6 archive: ${message}`);
    this.name = 'ArchiveFormatError';
  }
}

interface Entry {
  /** offset of the first header of the entry (its PAX or GNU long-name headers included) */
  start: number;
  /** offset just after its padded data */
  end: number;
  name: string;
  type: string;
  dataStart: number;
  size: number;
}

function field(buf: Uint8Array, offset: number, length: number): string {
  const raw = buf.subarray(offset, offset + length);
  const nul = raw.indexOf(0);
  return Buffer.from(nul === -1 ? raw : raw.subarray(0, nul)).toString('utf8');
}

function numeric(buf: Uint8Array, offset: number, length: number): number {
  const raw = buf.subarray(offset, offset + length);
  if ((raw[0]! & 0x80) !== 0) {
    // base-256 (GNU) for values that do not fit in octal
    let n = raw[0]! & 0x7f;
    for (let i = 1; i < raw.length; i++) n = n * 256 + raw[i]!;
    if (!Number.isSafeInteger(n)) throw new ArchiveFormatError('entry size out of range');
    return n;
  }
  const text = field(buf, offset, length).trim();
  if (text === '') return 0;
  if (!/^[0-7]+$/.test(text))
    throw new ArchiveFormatError(`bad numeric field ${JSON.stringify(text)}`);
  return parseInt(text, 8);
}

function checksumOk(header: Uint8Array): boolean {
  let sum = 0;
  for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 0x20 : header[i]!;
  return numeric(header, 148, 8) === sum;
}

/** PAX extended header records: `<len> <key>=<value>\n`. */
function paxRecords(data: Uint8Array): Map<string, string> {
  const out = new Map<string, string>();
  const text = Buffer.from(data).toString('utf8');
  let i = 0;
  while (i < text.length) {
    const space = text.indexOf(' ', i);
    if (space === -1) break;
    const len = Number(text.slice(i, space));
    if (!Number.isInteger(len) || len <= 0) throw new ArchiveFormatError('bad PAX record');
    const record = text.slice(space + 1, i + len - 1);
    const eq = record.indexOf('=');
    if (eq > 0) out.set(record.slice(0, eq), record.slice(eq + 1));
    i += len;
  }
  return out;
}

function entries(tar: Uint8Array): Entry[] {
  const out: Entry[] = [];
  let pos = 0;
  let start = 0;
  let longName: string | undefined;
  let paxPath: string | undefined;
  let paxSize: number | undefined;
  while (pos + BLOCK <= tar.length) {
    const header = tar.subarray(pos, pos + BLOCK);
    if (header.every((b) => b === 0)) return out; // end of archive
    if (!checksumOk(header)) throw new ArchiveFormatError(`bad header checksum at ${pos}`);
    const type = String.fromCharCode(header[156]!);
    const size = paxSize ?? numeric(header, 124, 12);
    const dataStart = pos + BLOCK;
    const end = dataStart + Math.ceil(size / BLOCK) * BLOCK;
    if (end > tar.length) throw new ArchiveFormatError('truncated entry');
    const data = tar.subarray(dataStart, dataStart + size);
    if (type === 'x') {
      const records = paxRecords(data);
      paxPath = records.get('path');
      const s = records.get('size');
      paxSize = s === undefined ? undefined : Number(s);
      if (paxSize !== undefined && !Number.isSafeInteger(paxSize))
        throw new ArchiveFormatError('bad PAX size');
    } else if (type === 'L') {
      longName = Buffer.from(data).toString('utf8').replace(/\0+$/, '');
    } else if (type === 'g') {
      // global PAX header: k6 writes none; nothing in it is needed here
    } else {
      const prefix = field(header, 345, 155);
      const plain = field(header, 0, 100);
      const name = paxPath ?? longName ?? (prefix ? `${prefix}/${plain}` : plain);
      out.push({ start, end, name, type, dataStart, size });
      longName = paxPath = paxSize = undefined;
      start = end;
    }
    pos = end;
    if (type === 'g') start = end;
  }
  throw new ArchiveFormatError('no end-of-archive marker');
}

function octal(value: number, length: number): string {
  return value.toString(8).padStart(length - 1, '0') + '\0';
}

/** One ustar header + data for a regular file at the archive's top level. */
function fileEntry(name: string, data: Uint8Array): Uint8Array {
  const header = new Uint8Array(BLOCK);
  const put = (offset: number, text: string) => header.set(Buffer.from(text, 'utf8'), offset);
  put(0, name);
  put(100, octal(0o644, 8));
  put(108, octal(0, 8));
  put(116, octal(0, 8));
  put(124, octal(data.length, 12));
  put(136, octal(Math.floor(Date.now() / 1000), 12));
  put(148, '        ');
  put(156, '0');
  put(257, 'ustar\0');
  put(263, '00');
  let sum = 0;
  for (const b of header) sum += b;
  put(148, sum.toString(8).padStart(6, '0') + '\0 ');
  const out = new Uint8Array(BLOCK + Math.ceil(data.length / BLOCK) * BLOCK);
  out.set(header, 0);
  out.set(data, BLOCK);
  return out;
}

/** The parsed `metadata.json` of a k6 archive. */
export function readArchiveMetadata(tar: Uint8Array): Record<string, unknown> {
  const entry = metadataEntry(tar);
  const parsed: unknown = JSON.parse(
    Buffer.from(tar.subarray(entry.dataStart, entry.dataStart + entry.size)).toString('utf8'),
  );
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    throw new ArchiveFormatError('metadata.json is not an object');
  return parsed as Record<string, unknown>;
}

function metadataEntry(tar: Uint8Array): Entry {
  const all = entries(tar);
  const found = all.filter((e) => e.name === METADATA || e.name === `./${METADATA}`);
  if (found.length !== 1)
    throw new ArchiveFormatError(`expected one ${METADATA}, found ${found.length}`);
  const entry = found[0]!;
  if (entry.type !== '0' && entry.type !== '\0')
    throw new ArchiveFormatError(`${METADATA} is not a regular file`);
  return entry;
}

/**
 * The archive with its `metadata.json` replaced by `edit(metadata)`'s result; every other entry
 * is kept as it was, in place.
 */
export function rewriteArchiveMetadata(
  tar: Uint8Array,
  edit: (metadata: Record<string, unknown>) => Record<string, unknown>,
): Uint8Array {
  const entry = metadataEntry(tar);
  const metadata = readArchiveMetadata(tar);
  const replacement = fileEntry(METADATA, Buffer.from(JSON.stringify(edit(metadata)), 'utf8'));
  return Buffer.concat([tar.subarray(0, entry.start), replacement, tar.subarray(entry.end)]);
}
