// CSV files built to make the parser work: a header or a row of a million cells, and thousands of
// one-character rows of the wrong length. Each is refused with a 400 that says what to send, and
// reading it never holds the event loop: the parser is handed a few lines at a time. A file in
// another encoding than UTF-8 is refused as such.
import { describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../support/app.js';
import { collectGarbage } from '../../support/gc.js';

const UPLOAD = '/_sandbox/bulk-disbursements';
const HEADER = 'reference,amount,currency,type,source.accountNumber,destination.accountNumber,destination.accountName,destination.bankCode,category';
const ROW = '3f1c2a9e-8b7d-4c6e-9f10-2a3b4c5d6e7f,2500,NGN,BANK,1000200030,0123456789,Ada Obi,058,SALARY';

const uploadCsv = (t: TestApp, text: string) => t.call('POST', UPLOAD, { raw: text, headers: { 'content-type': 'text/csv' } });

/**
 * The answer, and the longest the event loop was held meanwhile: a 2 ms timer that fires late counts
 * for the CPU time this process used while it waited, no more (a busy machine delays timers too).
 */
async function heldWhile<T>(run: () => Promise<T>): Promise<{ result: T; held: number }> {
  collectGarbage();
  let held = 0;
  let last = performance.now();
  let cpu = process.cpuUsage();
  const timer = setInterval(() => {
    const now = performance.now();
    const used = process.cpuUsage(cpu);
    held = Math.max(held, Math.min(now - last - 2, (used.user + used.system) / 1000));
    last = now;
    cpu = process.cpuUsage();
  }, 2);
  try {
    return { result: await run(), held };
  } finally {
    clearInterval(timer);
  }
}

describe('a hostile CSV', () => {
  it('a header of a million columns is refused at its first 4,096 characters', async () => {
    const t = await createTestApp();
    const res = await uploadCsv(t, `${HEADER},${'x,'.repeat(1_000_000)}x\n${ROW}\n`);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('INVALID_BULK_FILE');
    expect(res.body.message).toMatch(
      /^The CSV could not be read at line 1, column \d+: the row there is longer than 4096 characters, more than any row of a bulk file holds\. Send one transfer per line, each cell within its field's length, and close every quoted cell \(a quote left open runs on to the end of the file\)\.$/,
    );
    expect(res.body.error.details).toEqual([{ field: 'row 1', issue: 'is longer than 4096 characters: send one transfer per line, and close every quoted cell' }]);
  });

  it('a row of a million cells, or an unclosed quote, is refused naming its line', async () => {
    const t = await createTestApp();
    const cells = await uploadCsv(t, `${HEADER}\n${ROW}\n${ROW}${',x'.repeat(1_000_000)}\n`);
    expect([cells.status, cells.body.error.details]).toEqual([400, [{ field: 'row 3', issue: 'is longer than 4096 characters: send one transfer per line, and close every quoted cell' }]]);
    const open = await uploadCsv(t, `${HEADER}\n${ROW.replace('Ada Obi', '"Ada Obi')}\n${`${ROW}\n`.repeat(100)}`);
    expect(open.status).toBe(400);
    expect(open.body.message).toContain('at line 46, column 7 (destination.accountName): the row there is longer than 4096 characters');
  });

  it('10,000 one-character rows are all named, the event loop never held 100 ms', async () => {
    const t = await createTestApp();
    await uploadCsv(t, `${HEADER}\n${'a\n'.repeat(100)}`);
    // The least of three: the process's CPU counts V8's collector threads too, and a collection of
    // what earlier test files left in this worker can land in any one upload.
    const runs = [];
    for (let i = 0; i < 3; i++) runs.push(await heldWhile(() => uploadCsv(t, `${HEADER}\n${'a\n'.repeat(10_000)}`)));
    const { result: res, held } = runs.reduce((least, run) => (run.held < least.held ? run : least));
    expect(res.status).toBe(400);
    expect(res.body.error.details).toHaveLength(10_000);
    expect(res.body.error.details[9_999]).toEqual({ field: 'row 10001: row', issue: 'has 1 cells; the header has 9' });
    expect(held, `held ${Math.round(held)} ms`).toBeLessThan(100);
  });

  it('a row of the longest values every field takes is read as usual', async () => {
    const t = await createTestApp();
    const cols = `${HEADER},destination.branchCode,narrations`;
    const long = `3f1c2a9e-8b7d-4c6e-9f10-2a3b4c5d6e7f,2500,NGN,BANK,${'1'.repeat(34)},${'2'.repeat(34)},"${'A""'.repeat(66)}AB",058,SALARY,${'9'.repeat(20)},"${'n""'.repeat(85)}"`;
    const res = await uploadCsv(t, `${cols}\n${long}\n`);
    expect([res.status, res.body.count]).toEqual([201, 1]);
  });

  it('a file that is not UTF-8 (a UTF-16 or Latin-1 export) is refused as such, JSON or CSV', async () => {
    const t = await createTestApp();
    const send = async (bytes: Buffer, type: string) => {
      const res = await t.app.request(UPLOAD, {
        method: 'POST',
        headers: { authorization: 'Bearer sk_test_bulk_encodings', 'content-type': type, 'content-length': String(bytes.length) },
        body: new Uint8Array(bytes),
      });
      return { status: res.status, body: await res.json() };
    };
    const refused = {
      status: 400,
      body: {
        status: 'error',
        message: 'The bulk file is not UTF-8 text (a UTF-16 or Latin-1 export, say). Save it as UTF-8 (in a spreadsheet, "CSV UTF-8") and upload it again.',
        error: { type: 'invalid_request_error', code: 'INVALID_BULK_FILE', details: [{ field: 'file', issue: 'is not valid UTF-8: save it as UTF-8' }] },
      },
    };
    expect(await send(Buffer.from(`\ufeff${HEADER}\n${ROW}\n`, 'utf16le'), 'text/csv')).toEqual(refused);
    expect(await send(Buffer.from(`${HEADER}\n${ROW.replace('Ada Obi', 'Zoé Obi')}\n`, 'latin1'), 'text/csv')).toEqual(refused);
    const item = { reference: '3f1c2a9e-8b7d-4c6e-9f10-2a3b4c5d6e7f', amount: 2500, currency: 'NGN', type: 'BANK', source: { accountNumber: '1000200030' }, destination: { accountNumber: '0123456789', accountName: 'Zoé Obi', bankCode: '058' }, category: 'SALARY' };
    expect(await send(Buffer.from(JSON.stringify({ items: [item] }), 'latin1'), 'application/json')).toEqual(refused);
    // The same file in UTF-8 is taken, its name as sent.
    const ok = await send(Buffer.from(`${HEADER}\n${ROW.replace('Ada Obi', 'Zoé Obi')}\n`, 'utf8'), 'text/csv');
    expect([ok.status, ok.body.count]).toEqual([201, 1]);
  });

  it('a key has at most 4 uploads under way: a fifth at once is 429 with Retry-After, another key is not held', async () => {
    const t = await createTestApp();
    const file = (from: number) =>
      `${HEADER}\n${Array.from({ length: 5_000 }, (_, i) => ROW.replace('3f1c2a9e-8b7d-4c6e-9f10-2a3b4c5d6e7f', `00000000-0000-4000-8000-${String(from + i).padStart(12, '0')}`)).join('\n')}\n`;
    const [a, b, c, d, e, other] = await Promise.all([
      uploadCsv(t, file(0)),
      uploadCsv(t, file(10_000)),
      uploadCsv(t, file(20_000)),
      uploadCsv(t, file(30_000)),
      uploadCsv(t, file(40_000)),
      t.call('POST', UPLOAD, { key: 'sk_test_bulk_other_key', raw: file(50_000), headers: { 'content-type': 'text/csv' } }),
    ]);
    expect([a.status, b.status, c.status, d.status, other.status]).toEqual([201, 201, 201, 201, 201]);
    expect(e.status).toBe(429);
    expect(e.headers.get('retry-after')).toBe('1');
    expect(e.body).toEqual({
      status: 'error',
      message: 'This API key has 4 bulk uploads under way; at most 4 run at once. Send this file again once one of them has been answered.',
      error: { type: 'rate_limit_error', code: 'RATE_LIMITED', details: [{ field: 'file', issue: 'is one upload past the 4 a key may have under way: send it again once one is answered' }] },
    });
    // Once answered, the key uploads again.
    expect((await uploadCsv(t, file(40_000))).status).toBe(201);
  });

  it('the sandbox has at most 16 uploads under way from all keys: a seventeenth, its key within its own 4, is 503 with Retry-After', async () => {
    const t = await createTestApp();
    let next = 0;
    const file = () =>
      `${HEADER}\n${Array.from({ length: 2_000 }, () => ROW.replace('3f1c2a9e-8b7d-4c6e-9f10-2a3b4c5d6e7f', `00000000-0000-4000-8000-${String(next++).padStart(12, '0')}`)).join('\n')}\n`;
    const send = (key: string) => t.call('POST', UPLOAD, { key, raw: file(), headers: { 'content-type': 'text/csv' } });
    const keys = ['a', 'b', 'c', 'd'].flatMap((k) => Array<string>(4).fill(`sk_test_bulk_busy_${k}`));
    const answers = await Promise.all([...keys, 'sk_test_bulk_busy_e'].map(send));
    const refused = answers.filter((r) => r.status === 503);
    expect(answers.filter((r) => r.status === 201)).toHaveLength(16);
    expect(refused).toHaveLength(1);
    expect(refused[0]!.headers.get('retry-after')).toBe('1');
    expect(refused[0]!.body).toEqual({
      status: 'error',
      message: 'This sandbox has 16 bulk uploads under way for all keys, the most it runs at once. Send this file again after 1 s.',
      error: { type: 'api_error', code: 'SERVICE_UNAVAILABLE', details: [{ field: 'file', issue: 'is one upload past the 16 the sandbox runs at once: send it again after 1 s' }] },
    });
    // Once the others are answered, the refused key's upload is taken.
    const again = await send(answers.indexOf(refused[0]!) === 16 ? 'sk_test_bulk_busy_e' : keys[answers.indexOf(refused[0]!)]!);
    expect(again.status).toBe(201);
  });
});
