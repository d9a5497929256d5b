// Reading an uploaded bulk file, JSON or CSV, into rows: each row validated like a single transfer
// plus its category. Problems are collected per row, addressed the way each format is read:
// JSON rows as items[i].field (the index in the items array), CSV rows as `row N: field` (N the
// line of the file, the header being row 1, as a spreadsheet numbers them).
import { nextTurn } from '../../kernel/turns.js';
import { parse } from 'csv-parse/stream';
import { SandboxError, type ErrorDetail } from '../../kernel/errors.js';
import { validationError } from '../../kernel/validation.js';
import { splitArray } from '../../kernel/json-split.js';
import { mapInSlices } from './bulk.slices.js';
import { BulkRow } from './transfers.schema.js';

export const MAX_ROWS = 10_000;

export interface FileRow {
  /** How error details name a field of this row. */
  field(name: string): string;
  row?: BulkRow;
  errors: ErrorDetail[];
}

export interface ParsedFile {
  name?: string;
  rows: FileRow[];
}

export const CSV_COLUMNS = [
  'reference',
  'amount',
  'currency',
  'type',
  'source.accountNumber',
  'destination.accountNumber',
  'destination.accountName',
  'destination.bankCode',
  'destination.branchCode',
  'narrations',
  'category',
  'status',
  'failureReason',
  'createdAt',
] as const;
const REQUIRED_COLUMNS = ['reference', 'amount', 'currency', 'type', 'source.accountNumber', 'destination.accountNumber', 'destination.accountName', 'category'];

export const invalidFile = (message: string, details: ErrorDetail[]) => new SandboxError('INVALID_BULK_FILE', message, details);

function checkRow(input: unknown, field: (name: string) => string): FileRow {
  const res = BulkRow.safeParse(input);
  if (res.success) return { field, row: res.data, errors: [] };
  const details = validationError(res.error, 'json', input).details;
  return { field, errors: details.map((d) => ({ field: field(d.field === 'body' ? 'row' : d.field), issue: d.issue })) };
}

function checkCount(n: number, field: string): void {
  if (n === 0) throw invalidFile('The bulk file has no rows. Send at least one transfer.', [{ field, issue: 'must have at least 1 row' }]);
  if (n > MAX_ROWS) {
    throw invalidFile(`The bulk file has ${n} rows; at most ${MAX_ROWS} are accepted. Split it into several files.`, [
      { field, issue: `has ${n} rows; at most ${MAX_ROWS} are accepted` },
    ]);
  }
}

/**
 * A JSON bulk file's text parsed a row at a time, with turns of the event loop between the steps and
 * between slices of rows: the object with its items left out, then each item (kernel/json-split.ts).
 * Read, counted and parsed in one go, a 10,000-row file (3.4 MB) held every key's requests 22 to 47 ms.
 * A text not plainly of that form is parsed whole. Throws JSON.parse's SyntaxError for text that is
 * not JSON.
 */
export async function parseBulkJson(text: string): Promise<unknown> {
  await nextTurn();
  const split = splitArray(text, 'items');
  if (!split) return JSON.parse(text);
  // More rows than a file may hold are refused before any is parsed (the value budget lets through
  // some 150,000 small items).
  if (split.items.length > MAX_ROWS) checkCount(split.items.length, 'items');
  await nextTurn();
  const file = JSON.parse(split.envelope) as Record<string, unknown>;
  file.items = await mapInSlices(split.items, (item) => JSON.parse(item) as unknown);
  return file;
}

/** A JSON upload: {"name"?: string, "items": [row, ...]}. */
export async function readJson(body: unknown): Promise<ParsedFile> {
  const obj = body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : undefined;
  if (!obj || !Array.isArray(obj.items)) {
    throw invalidFile('A JSON bulk file is an object with an "items" array of transfers (and optionally a "name").', [
      { field: 'items', issue: 'is required: send an array of transfers' },
    ]);
  }
  if (obj.name !== undefined && (typeof obj.name !== 'string' || obj.name.length < 1 || obj.name.length > 100)) {
    throw invalidFile('The name of a bulk file is a string of 1 to 100 characters.', [{ field: 'name', issue: 'must be a string of 1 to 100 characters' }]);
  }
  checkCount(obj.items.length, 'items');
  const rows = await mapInSlices(obj.items, (item, i) => checkRow(item, (f) => `items[${i}].${f}`));
  return { name: obj.name as string | undefined, rows };
}

interface CsvRecord {
  record: string[];
  info: { lines: number };
}

/** Bytes of CSV handed to the parser at a time: a few milliseconds of work each. */
const CSV_CHUNK = 8 * 1024;
/** Lines handed to the parser at a time: its work is per record as much as per byte (a row of the
 * wrong length costs it about 50 µs), and 8 KiB of one-character rows is 4,096 records. Blank lines,
 * which it skips, are not counted. */
const CSV_LINES = 128;
/** The longest row, in characters: the longest each field takes adds up to about 1,000. */
export const MAX_CSV_ROW = 4096;

const isBreak = (c: number | undefined) => c === 0x0a || c === 0x0d;

/** The end of the next piece of `bytes` from `at`: CSV_CHUNK bytes, cut after the end of its CSV_LINES-th line. */
function pieceEnd(bytes: Buffer, at: number): number {
  const end = Math.min(bytes.length, at + CSV_CHUNK);
  let lines = 0;
  for (let k = at; k < end; k++) {
    if (isBreak(bytes[k]) && k > 0 && !isBreak(bytes[k - 1]) && ++lines === CSV_LINES) return k + 1;
  }
  return end;
}

/** The CSV's records, parsed a chunk at a time with a turn of the event loop between chunks. */
async function parseCsv(text: string): Promise<CsvRecord[]> {
  const parser = parse({ info: true, bom: true, trim: true, skip_empty_lines: true, relax_column_count: true, max_record_size: MAX_CSV_ROW });
  const records: CsvRecord[] = [];
  // Reading settles with the parser's error, if any, rather than rejecting: the parser may fail
  // between two chunks, long before reading is awaited, and a rejection nobody holds yet would
  // escape the request.
  const reading = (async () => {
    for await (const r of parser.readable) {
      // The header and MAX_ROWS rows at most: past them the file is refused without reading the rest.
      if (records.push(r as CsvRecord) > MAX_ROWS + 1) {
        throw invalidFile(`The bulk file has more than ${MAX_ROWS} rows; at most ${MAX_ROWS} are accepted. Split it into several files.`, [
          { field: 'file', issue: `has more than ${MAX_ROWS} rows; at most ${MAX_ROWS} are accepted` },
        ]);
      }
    }
  })().then(
    () => undefined,
    (err: unknown) => err,
  );
  const writer = parser.writable.getWriter();
  const bytes = Buffer.from(text);
  try {
    for (let at = 0; at < bytes.length; ) {
      const end = pieceEnd(bytes, at);
      await writer.write(bytes.subarray(at, end));
      await nextTurn();
      at = end;
    }
    await writer.close();
  } catch {
    // The parser failed: reading ends with its error, thrown below.
  }
  const failure = await reading;
  if (failure instanceof SandboxError) throw failure;
  if (failure) throw unreadable(failure, records[0]?.record);
  return records;
}

/** The parser's error as the 400 that names where it stopped: the line, and the column by its header name. */
function unreadable(err: unknown, header: string[] | undefined): SandboxError {
  const { lines, column, code } = err as { lines?: number; column?: number; code?: string };
  const name = typeof column === 'number' && header && lines !== undefined && lines > 1 ? header[column] : undefined;
  const where = [lines ? `line ${lines}` : undefined, typeof column === 'number' ? `column ${column + 1}${name ? ` (${name})` : ''}` : undefined]
    .filter(Boolean)
    .join(', ');
  if (code === 'CSV_MAX_RECORD_SIZE') {
    return invalidFile(
      `The CSV could not be read${where ? ` at ${where}` : ''}: the row there is longer than ${MAX_CSV_ROW} characters, more than any row of a bulk file holds. Send one transfer per line, each cell within its field's length, and close every quoted cell (a quote left open runs on to the end of the file).`,
      [{ field: lines ? `row ${lines}` : 'file', issue: `is longer than ${MAX_CSV_ROW} characters: send one transfer per line, and close every quoted cell` }],
    );
  }
  const quotes = code !== undefined && /QUOTE/.test(code);
  const advice = quotes
    ? 'A cell holding a double quote is quoted whole, with the quote doubled inside it: "O""Brien".'
    : 'Send comma-separated text with a header row.';
  return invalidFile(`The CSV could not be read${where ? ` at ${where}` : ''}: ${(err as Error).message}. ${advice}`, [
    { field: lines ? `row ${lines}` : 'file', issue: `is not valid CSV${where ? ` at ${where}` : ''}: ${quotes ? 'a double quote inside a cell must be doubled and the cell quoted' : 'check its quoting and separators'}` },
  ]);
}

/** A CSV upload: a header row naming the columns (CSV_COLUMNS), then one transfer per row. */
export async function readCsv(text: string, name?: string): Promise<ParsedFile> {
  const [head, ...data] = await parseCsv(text);
  if (!head) throw invalidFile('The CSV is empty. Send a header row and at least one transfer.', [{ field: 'file', issue: 'is empty' }]);
  const header = head.record;
  const unknown = header.filter((c) => !(CSV_COLUMNS as readonly string[]).includes(c));
  if (unknown.length > 0) {
    throw invalidFile(
      `The CSV header names column(s) a bulk file does not take: ${unknown.join(', ')}. Its columns are: ${CSV_COLUMNS.join(', ')}.`,
      unknown.map((c) => ({ field: 'row 1', issue: `has a column ${c} that is not a field of a row: remove it` })),
    );
  }
  const missing = REQUIRED_COLUMNS.filter((c) => !header.includes(c));
  if (missing.length > 0) {
    throw invalidFile(`The CSV header lacks the column(s) ${missing.join(', ')}. Its columns are: ${CSV_COLUMNS.join(', ')}.`, missing.map((c) => ({ field: 'row 1', issue: `has no column ${c}` })));
  }
  checkCount(data.length, 'file');
  const rows = await mapInSlices(data, ({ record, info }) => {
    const field = (f: string) => `row ${info.lines}: ${f}`;
    if (record.length !== header.length) {
      return { field, errors: [{ field: field('row'), issue: `has ${record.length} cells; the header has ${header.length}` }] };
    }
    return checkRow(toItem(header, record), field);
  });
  return { name, rows };
}

const NUMBER = /^-?\d+(\.\d+)?$/;

/** One CSV record as the JSON item it stands for; empty cells are absent fields. */
function toItem(header: string[], record: string[]): Record<string, unknown> {
  const item: Record<string, unknown> = {};
  header.forEach((col, i) => {
    const cell = record[i];
    if (cell === '' || !(CSV_COLUMNS as readonly string[]).includes(col)) return;
    const value = col === 'amount' && NUMBER.test(cell) ? Number(cell) : cell;
    const [outer, inner] = col.split('.');
    if (inner === undefined) item[outer] = value;
    else item[outer] = { ...(item[outer] as object | undefined), [inner]: value };
  });
  item.source ??= {};
  item.destination ??= {};
  return item;
}
