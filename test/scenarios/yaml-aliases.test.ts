// YAML anchors and aliases in scenario documents: an alias inside the value its anchor marks (a
// value that contains itself) and an alias bomb are refused with 400 INVALID_SCENARIO naming the
// alias, on both control routes that take YAML, and by the file loader (validate, --scenario).
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { ScenarioError } from '../../src/engine/scenario/scenario.load.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { loadRegistry, validateScenarioFile } from '../support/scenarios.js';

const SELF = 'a: &a [*a]\n';
const NESTED = 'payout:\n  outcomes: &rules\n    - status: FAILED\n      when: { fields: { x: *rules } }\n';
/** Nine levels of nine aliases each: 9^8 copies of one list once expanded. */
const BOMB = [
  'a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]',
  ...'bcdefghi'.split('').map((c, i) => `${c}: &${c} [${Array(9).fill(`*${'abcdefghi'[i]}`).join(', ')}]`),
].join('\n');

const yaml = { 'content-type': 'application/yaml' };

let t: TestApp;
beforeEach(async () => {
  t = await createTestApp();
});

describe('YAML aliases in a scenario body', () => {
  for (const [route, method] of [
    ['/_sandbox/scenario', 'PUT'],
    ['/_sandbox/scenarios/mine', 'PUT'],
  ] as const) {
    it(`${method} ${route}: an alias inside its own anchor's value is 400 naming *a and &a`, async () => {
      const res = await t.call(method, route, { raw: SELF, headers: yaml });
      expect([res.status, res.body.error.code]).toEqual([400, 'INVALID_SCENARIO']);
      expect(res.body.message).toBe(
        'The body has the alias *a at a[0] inside the value its anchor &a marks, so that value would contain itself without end: write the value out in place of *a, or move &a to a value that does not hold the alias.',
      );
      expect(res.body.error.details).toEqual([{ field: 'body', issue: expect.stringContaining('the alias *a at a[0]') }]);
      const deeper = await t.call(method, route, { raw: NESTED, headers: yaml });
      expect(deeper.status).toBe(400);
      expect(deeper.body.message).toContain('the alias *rules at payout.outcomes[0].when.fields.x inside the value its anchor &rules marks');
    });

    it(`${method} ${route}: an alias bomb is 400 naming the anchor repeated most`, async () => {
      const res = await t.call(method, route, { raw: BOMB, headers: yaml });
      expect([res.status, res.body.error.code]).toEqual([400, 'INVALID_SCENARIO']);
      expect(res.body.message).toMatch(/^The body repeats values through aliases past what the sandbox reads .*: 9 aliases \*h repeat the value anchored &h, [\d,]+ values in all: write the values out, or use fewer aliases of aliases\.$/);
    });
  }

  it('counts anchors and aliases as the parser finds them, however they are spaced: past 100 is 400', async () => {
    // A tab before each, and aliases as flow-map values: a count of the text's & and * after spaces misses them all.
    const doc = `a: [${Array.from({ length: 60 }, (_, i) => `\t&m${i} 1`).join(',')}]\nb: {${Array.from({ length: 60 }, (_, i) => `"k${i}":*m${i}`).join(',')}}\n`;
    const res = await t.call('PUT', '/_sandbox/scenario', { raw: doc, headers: yaml });
    expect([res.status, res.body.error.code]).toEqual([400, 'INVALID_SCENARIO']);
    expect(res.body.message).toBe('The body has more than 100 anchors (&) and aliases (*): write the repeated values out, or repeat fewer of them.');
  });

  it('still takes anchors and aliases that repeat a value', async () => {
    const doc = 'payout:\n  outcomes:\n    - when: { currency: &ngn NGN }\n      status: FAILED\n    - when: { currency: *ngn }\n      status: SUCCESSFUL\n';
    const res = await t.call('PUT', '/_sandbox/scenario', { raw: doc, headers: yaml });
    expect(res.status).toBe(200);
    expect(res.body.document.payout.outcomes.map((r: { when: { currency: string } }) => r.when.currency)).toEqual(['NGN', 'NGN']);
  });
});

describe('YAML aliases in a scenario file', () => {
  it('validate and --scenario refuse a self-alias and an alias bomb, naming the alias', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'scenario-'));
    const self = path.join(dir, 'self.yaml');
    const bomb = path.join(dir, 'bomb.yaml');
    await writeFile(self, SELF);
    await writeFile(bomb, BOMB);
    const checked = validateScenarioFile(self);
    expect(checked.code).toBe(1);
    expect(checked.message).toBe(
      `${self} is not a valid scenario:\n  (document): has the alias *a at a[0] inside the value its anchor &a marks, so that value would contain itself without end: write the value out in place of *a, or move &a to a value that does not hold the alias`,
    );
    expect(validateScenarioFile(bomb).message).toMatch(/\(document\): repeats values through aliases .*: 9 aliases \*h repeat the value anchored &h/);
    expect(() => loadRegistry(self)).toThrow(ScenarioError);
    expect(() => loadRegistry(self)).toThrow(`scenario ${self} refused: has the alias *a at a[0] inside the value its anchor &a marks`);
  });
});

describe('a YAML scenario body the reader would spend long on', () => {
  it('names a key written twice in one map, with the map and the line', async () => {
    const doc = 'payout:\n  outcomes:\n    - status: FAILED\n      when: { currency: NGN, currency: GHS }\n';
    const res = await t.call('PUT', '/_sandbox/scenario', { raw: doc, headers: yaml });
    expect([res.status, res.body.error.code]).toEqual([400, 'INVALID_SCENARIO']);
    expect(res.body.message).toBe(
      "The body is not valid YAML: the key 'currency' is written twice in the map at payout.outcomes[0].when (again at line 4, column 30): write each key of a map once.",
    );
    // At the top, and a block map of many keys with one repeated at its end.
    const top = await t.call('PUT', '/_sandbox/scenario', { raw: 'seed: 1\nseed: 2\n', headers: yaml });
    expect(top.body.message).toBe("The body is not valid YAML: the key 'seed' is written twice in the map (again at line 2, column 1): write each key of a map once.");
    const many = `${Array.from({ length: 998 }, (_, i) => `k${i}: 1`).join('\n')}\nk7: 2\n`;
    expect((await t.call('PUT', '/_sandbox/scenario', { raw: many, headers: yaml })).body.message).toContain("the key 'k7' is written twice in the map (again at line 999, column 1)");
  });

  it('refuses more than 1,000 commas before parsing, naming the line', async () => {
    const doc = `payout:\n  outcomes: [${Array(1_002).fill('{}').join(', ')}]\n`;
    const res = await t.call('PUT', '/_sandbox/scenario', { raw: doc, headers: yaml });
    expect([res.status, res.body.error.code]).toEqual([400, 'INVALID_SCENARIO']);
    expect(res.body.message).toBe('The body has more than 1000 commas (line 2), more values than a scenario needs: send a shorter document (a rule is a few values).');
    // 1,000 are read as usual (and refused here for what they say: too many rules).
    const fewer = await t.call('PUT', '/_sandbox/scenario', { raw: `payout:\n  outcomes: [${Array(1_001).fill('{}').join(', ')}]\n`, headers: yaml });
    expect(fewer.body.message).toBe('The scenario is not valid: scenario.payout.outcomes must have at most 50 item(s). See /_sandbox/scenario.schema.json for the format.');
  });
});
