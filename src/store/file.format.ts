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

export async function readSnapshot(buf: Buffer, file: string): Promise<ReadSnapshot> {
  const head = SNAPSHOT_HEAD.exec(buf.toString('latin1', 0, 100));
  if (!head) return readLegacySnapshot(buf, file);
  const gen = Number(head[1]);
  if (buf.length < head[0].length + 2 || buf.toString('latin1', buf.length - 2) !== '}\n') {
    throw new StoreLoadError(file, 'it ends before its last brace: it was cut short');
  }
  const body = buf.subarray(head[0].length, buf.length - 2);
  // Checked 1 MiB at a time, with the event loop given its turn between: a large tenant's snapshot is tens of MB.
  let crc = seedOf(gen);
  for (let at = 0; at < body.length; at += CHECK_SLICE) {
    if (at > 0) await new Promise((resolve) => setImmediate(resolve));
    crc = crc32(body.subarray(at, at + CHECK_SLICE), crc);
  }
  if (hex(crc) !== head[2]) {
    throw new StoreLoadError(file, `its content does not match its checksum ${head[2]}: it was changed or damaged`);
  }
  const text = body.toString('utf8');
  const data = (await collectionsInTurns(text)) ?? collectionsOf(parseJson(text), file);
  return { legacy: false, gen, checksum: head[2], data };
}

/** Bytes of a snapshot a load checks before it gives the event loop its turn. */
const CHECK_SLICE = 1 << 20;

/** Records a load parses before it gives the event loop its turn. */
export const LOAD_SLICE = 1000;

/**
 * The collections of a snapshot's body as this store writes it (`{"name":[["id",record],...],...}`,
 * no white space), parsed a record at a time with the event loop given its turn every LOAD_SLICE
 * records: a tenant of a hundred thousand records is tens of MB, which parsed in one go held every
 * key's requests. Undefined for any text not of that form (the caller then parses it whole, which
 * takes it as JSON.parse does or refuses it).
 */
async function collectionsInTurns(text: string): Promise<Collections | undefined> {
  const data: Collections = new Map();
  let i = 1;
  let records = 0;
  if (text.charCodeAt(0) !== 123 /* { */) return undefined;
  if (text.charCodeAt(1) === 125 /* } */) return text.length === 2 ? data : undefined;
  for (;;) {
    const nameEnd = stringEnd(text, i);
    if (nameEnd < 0 || text.charCodeAt(nameEnd) !== 58 /* : */ || text.charCodeAt(nameEnd + 1) !== 91 /* [ */) return undefined;
    const name = parseJson(text.slice(i, nameEnd));
    if (typeof name !== 'string') return undefined;
    // A name written twice is taken as JSON.parse takes it (the last), by the whole parse.
    if (data.has(name)) return undefined;
    const map = mapFor(name);
    data.set(name, map);
    i = nameEnd + 2;
    if (text.charCodeAt(i) === 93 /* ] */) i++;
    else {
      for (;;) {
        const end = arrayEnd(text, i);
        if (end < 0) return undefined;
        const entry = parseJson(text.slice(i, end));
        if (!Array.isArray(entry) || entry.length !== 2 || typeof entry[0] !== 'string') return undefined;
        map.set(entry[0], entry[1]);
        if (++records % LOAD_SLICE === 0) await new Promise((resolve) => setImmediate(resolve));
        i = end + 1;
        const next = text.charCodeAt(end);
        if (next === 93 /* ] */) break;
        if (next !== 44 /* , */) return undefined;
      }
    }
    const next = text.charCodeAt(i++);
    if (next === 125 /* } */) return i === text.length ? data : undefined;
    if (next !== 44 /* , */) return undefined;
  }
}

/** The index just past the JSON string that starts at `i`; -1 when none does. */
function stringEnd(text: string, i: number): number {
  if (text.charCodeAt(i) !== 34 /* " */) return -1;
  for (let j = i + 1; j < text.length; j++) {
    const c = text.charCodeAt(j);
    if (c === 92 /* \ */) j++;
    else if (c === 34) return j + 1;
  }
  return -1;
}

/** The index just past the JSON array that starts at `i` (its strings skipped whole); -1 when none does. */
function arrayEnd(text: string, i: number): number {
  if (text.charCodeAt(i) !== 91 /* [ */) return -1;
  let depth = 0;
  for (let j = i; j < text.length; j++) {
    const c = text.charCodeAt(j);
    if (c === 34) {
      const end = stringEnd(text, j);
      if (end < 0) return -1;
      j = end - 1;
    } else if (c === 91 || c === 123) depth++;
    else if ((c === 93 || c === 125) && --depth === 0) return j + 1;
  }
  return -1;
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

/** Check and decode a log named generation `gen`, LOAD_SLICE records at a time with the event loop
 * given its turn between (a log grows as large as its snapshot before a compaction); throws naming
 * the file on any damage but a torn last record in a log a writer still had open. */
export async function readLog(buf: Buffer, file: string, gen: number): Promise<ReadLog> {
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
    if (seq % LOAD_SLICE === 0 && seq > 0) await new Promise((resolve) => setImmediate(resolve));
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
