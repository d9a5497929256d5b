// The bytes of the persistent store's files, and the checks that make them self-checking.
//
// snapshot.json  {"version":2,"walGen":G,"checksum":"<crc>","collections":C}\n
//                The checksum is the CRC-32 of "G " followed by the bytes of C, so the generation is
//                covered too. Written to a temp file, then renamed over the old one; a compaction
//                encodes it a slice of records at a time (encodeSnapshotInTurns).
// wal-<G>.jsonl  One record a line: "<crc> <seq> <json>\n", the CRC-32 of "G <seq> <json>", so a record
//                copied from another generation fails its check; seq counts 1, 2, 3... so a line lost,
//                doubled or moved is seen. Record 0 is the header: the generation, the checksum of the
//                snapshot it continues, and the file's length: exact when `closed` is 1 (so a cut is
//                seen), the length it was opened at when 0 (a writer had it, so it may end torn).
import { crc32 } from 'node:zlib';
import path from 'node:path';
import { mapFor, type StoreOp } from './store.js';

/** A data file that cannot be loaded: names the file, what is wrong and how to recover. */
export class StoreLoadError extends Error {
  /** The file and the tenant's folder relative to the data directory, for messages shown to API clients. */
  readonly shown: string;
  readonly shownFolder: string;

  constructor(
    readonly file: string,
    readonly reason: string,
    dataDir = path.dirname(file),
    folder = path.dirname(file),
  ) {
    super(
      `Cannot load the sandbox data file ${file}: ${reason}. The sandbox does not load damaged data. ` +
        `Restore the file from a backup, or move the tenant's folder (${folder}) aside to start that tenant empty.`,
    );
    this.name = 'StoreLoadError';
    this.shown = path.relative(dataDir, file);
    this.shownFolder = path.relative(dataDir, folder);
  }
}

export const hex = (n: number) => n.toString(16).padStart(8, '0');

/** The CRC-32 of "G ": the checksum of the snapshot and of every log record of generation G
 * continues it, so the generation is checked too. */
export const seedOf = (gen: number) => crc32(`${gen} `);

export type Collections = Map<string, Map<string, unknown>>;

export function encodeSnapshot(gen: number, data: Collections): { text: string; checksum: string } {
  const body = [...bodyPieces(frozen(data), Infinity)].join('');
  const checksum = hex(crc32(body, seedOf(gen)));
  return { text: `${snapshotHead(gen, checksum)}${body}}\n`, checksum };
}

const snapshotHead = (gen: number, checksum: string) => `{"version":2,"walGen":${gen},"checksum":"${checksum}","collections":`;

/** Records a compaction encodes before it gives the event loop its turn: about 1 ms of work. */
export const SNAPSHOT_SLICE = 1000;

/** Each non-empty collection's ids and records as they stand now. Records are values a write
 * replaces and never changes, so these arrays stay the collections of this instant while writes go on. */
const frozen = (data: Collections) =>
  [...data].filter(([, map]) => map.size > 0).map(([name, map]) => ({ name, ids: Array.from(map.keys()), records: Array.from(map.values()) }));

/** The collections as the snapshot's JSON object, in pieces of `slice` records: the text JSON.stringify
 * gives the whole, cut between records. */
function* bodyPieces(collections: ReturnType<typeof frozen>, slice: number): Generator<string> {
  let text = '{';
  let count = 0;
  for (const [c, { name, ids, records }] of collections.entries()) {
    text += `${c ? ',' : ''}${JSON.stringify(name)}:[`;
    for (let i = 0; i < ids.length; i++) {
      text += (i ? ',' : '') + JSON.stringify([ids[i], records[i]]);
      if (++count % slice === 0) {
        yield text;
        text = '';
      }
    }
    text += ']';
  }
  yield `${text}}`;
}

/**
 * The snapshot of generation `gen` as it stands when called, as pieces of text to write in order. The
 * collections are taken as they stand at once (arrays of their ids and records), then encoded
 * SNAPSHOT_SLICE records at a time with the event loop given its turn between slices: a tenant of a
 * hundred thousand records is tens of MB of JSON, which encoded in one go held every key's requests
 * for hundreds of ms.
 */
export async function encodeSnapshotInTurns(gen: number, data: Collections): Promise<{ pieces: string[]; checksum: string; bytes: number }> {
  const body: string[] = [];
  let crc = seedOf(gen);
  let bytes = 0;
  for (const piece of bodyPieces(frozen(data), SNAPSHOT_SLICE)) {
    crc = crc32(piece, crc);
    bytes += Buffer.byteLength(piece);
    body.push(piece);
    await new Promise((resolve) => setImmediate(resolve));
  }
  const checksum = hex(crc);
  const head = snapshotHead(gen, checksum);
  return { pieces: [head, ...body, '}\n'], checksum, bytes: bytes + Buffer.byteLength(head) + 2 };
}

/** The checksum of the empty snapshot of generation 0: what a first log continues. */
export const EMPTY_SNAPSHOT = encodeSnapshot(0, new Map()).checksum;

const SNAPSHOT_HEAD = /^\{"version":2,"walGen":(\d{1,15}),"checksum":"([0-9a-f]{8})","collections":/;

export type ReadSnapshot =
  | { legacy: false; gen: number; checksum: string; data: Collections }
  | { legacy: true; gen: number; data: Collections };

export function readSnapshot(buf: Buffer, file: string): ReadSnapshot {
  const head = SNAPSHOT_HEAD.exec(buf.toString('latin1', 0, 100));
  if (!head) return readLegacySnapshot(buf, file);
  const gen = Number(head[1]);
  if (buf.length < head[0].length + 2 || buf.toString('latin1', buf.length - 2) !== '}\n') {
    throw new StoreLoadError(file, 'it ends before its last brace: it was cut short');
  }
  const body = buf.subarray(head[0].length, buf.length - 2);
  if (hex(crc32(body, seedOf(gen))) !== head[2]) {
    throw new StoreLoadError(file, `its content does not match its checksum ${head[2]}: it was changed or damaged`);
  }
  return { legacy: false, gen, checksum: head[2], data: collectionsOf(parseJson(body.toString('utf8')), file) };
}

/** A snapshot written before files were self-checking: {"version":1,"walGen":N,"collections":{...}}. */
function readLegacySnapshot(buf: Buffer, file: string): ReadSnapshot {
  let snap: any;
  try {
    snap = JSON.parse(buf.toString('utf8'));
  } catch (e) {
    throw new StoreLoadError(file, `it is not valid JSON (${(e as Error).message})`);
  }
  if (!snap || snap.version !== 1 || 'checksum' in snap || !Number.isSafeInteger(snap.walGen) || snap.walGen < 0) {
    throw new StoreLoadError(file, 'it is not a sandbox snapshot (expected {"version":2,...})');
  }
  return { legacy: true, gen: snap.walGen, data: collectionsOf(snap.collections, file) };
}

function collectionsOf(raw: unknown, file: string): Collections {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw new StoreLoadError(file, 'its collections are not an object');
  }
  const data: Collections = new Map();
  for (const [name, entries] of Object.entries(raw)) {
    if (!Array.isArray(entries) || !entries.every((e) => Array.isArray(e) && e.length === 2 && typeof e[0] === 'string')) {
      throw new StoreLoadError(file, `collection '${name}' is not a list of [id, record] pairs`);
    }
    const map = mapFor(name);
    for (const [id, record] of entries as [string, unknown][]) map.set(id, record);
    data.set(name, map);
  }
  return data;
}

export interface LogHeader {
  gen: number;
  /** Checksum of the snapshot this log continues. */
  snapshot: string;
  closed: 0 | 1;
  length: number;
}

/** A record of the generation whose seed is `seed`. */
export function encodeRecord(seed: number, seq: number, json: string): string {
  const rest = `${seq} ${json}`;
  return `${hex(crc32(rest, seed))} ${rest}\n`;
}

export function encodeHeader(h: LogHeader): string {
  const json = `{"gen":${h.gen},"snapshot":"${h.snapshot}","closed":${h.closed},"length":"${String(h.length).padStart(15, '0')}"}`;
  return encodeRecord(seedOf(h.gen), 0, json);
}

/** The bytes of a header line: the same whatever its length and state, so it is rewritten in place. */
export const headerBytes = (gen: number) => Buffer.byteLength(encodeHeader({ gen, snapshot: EMPTY_SNAPSHOT, closed: 1, length: 0 }));

/** Whether a log begins as this format's logs do (the header, record 0); earlier logs began with JSON. */
export const isCheckedLog = (buf: Buffer) => /^[0-9a-f]{8} 0 \{/.test(buf.toString('latin1', 0, 12));

export interface ReadLog {
  header: LogHeader;
  ops: StoreOp[];
  /** Bytes of whole records. */
  end: number;
  /** Bytes after them: a record torn by an interrupted write, cut before the next append. */
  torn: number;
}

/** Check and decode a log named generation `gen`; throws naming the file on any damage but a torn
 * last record in a log a writer still had open. */
export function readLog(buf: Buffer, file: string, gen: number): ReadLog {
  const seed = seedOf(gen);
  const ops: StoreOp[] = [];
  let header: LogHeader | undefined;
  let at = 0;
  for (let seq = 0; ; seq++) {
    const nl = buf.indexOf(10, at);
    if (nl < 0) break;
    const line = buf.toString('latin1', at, Math.min(nl, at + 30));
    const m = /^([0-9a-f]{8}) (\d{1,15}) /.exec(line);
    const where = seq === 0 ? 'its header' : `record ${seq} (line ${seq + 1})`;
    if (!m || hex(crc32(buf.subarray(at + 9, nl), seed)) !== m[1]) {
      throw new StoreLoadError(file, `${where} does not match its checksum: the file was changed or damaged`);
    }
    if (Number(m[2]) !== seq) {
      throw new StoreLoadError(file, `line ${seq + 1} is record ${m[2]} where record ${seq} belongs: records were lost, doubled or moved`);
    }
    const value = parseJson(buf.toString('utf8', at + m[0].length, nl));
    if (seq === 0) header = checkHeader(value, file, gen, buf.length);
    else if (isOp(value)) ops.push(value);
    else throw new StoreLoadError(file, `${where} is not a sandbox write`);
    at = nl + 1;
  }
  if (!header) throw new StoreLoadError(file, 'its header is incomplete: the file was cut short');
  if (at < buf.length && header.closed) {
    throw new StoreLoadError(file, 'its last record is incomplete, yet the file was closed after writing it: it was changed or damaged');
  }
  if (at < header.length) {
    throw new StoreLoadError(file, `records end at byte ${at}, but the file held ${header.length} bytes when last opened: it was cut`);
  }
  return { header, ops, end: at, torn: buf.length - at };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined; // the checksum matched text that is not JSON: refused as not a write
  }
}

function checkHeader(h: any, file: string, gen: number, size: number): LogHeader {
  if (!h || h.gen !== gen || typeof h.snapshot !== 'string' || (h.closed !== 0 && h.closed !== 1) || !/^\d{15}$/.test(h.length)) {
    throw new StoreLoadError(file, `its header is not that of log generation ${gen}`);
  }
  const header: LogHeader = { gen, snapshot: h.snapshot, closed: h.closed, length: Number(h.length) };
  if (header.closed && size !== header.length) {
    throw new StoreLoadError(
      file,
      size < header.length
        ? `it is ${size} bytes, but was ${header.length} when last closed: it was cut`
        : `it is ${size} bytes, but was ${header.length} when last closed: bytes were added`,
    );
  }
  return header;
}

export function isOp(x: any): x is StoreOp {
  if (typeof x !== 'object' || x === null) return false;
  if (x.op === 'clearAll') return x.keep === undefined || (Array.isArray(x.keep) && x.keep.every((k: unknown) => typeof k === 'string'));
  if (typeof x.c !== 'string') return false;
  if (x.op === 'put') return typeof x.id === 'string' && 'v' in x;
  if (x.op === 'del') return typeof x.id === 'string';
  return x.op === 'clear';
}

/** A tenant's files as read: its collections, the operations still to apply, and where writes go on. */
export interface LoadedTenant {
  data: Collections;
  ops: StoreOp[];
  snapshotBytes: number;
  /** The log writes continue in; absent when the tenant has nothing on disk yet. */
  log?: { file: string; gen: number; snapshot: string; size: number; torn: boolean };
  /** Files written before they were self-checking, to be rewritten now; `gen` is their newest generation. */
  legacy?: { gen: number };
}
