import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { splitArray } from './json-split.js';

/** The object a split gives: the envelope parsed, its items parsed one by one. Throws as JSON.parse. */
function parsedSplit(text: string): unknown {
  const split = splitArray(text, 'items');
  if (!split) return JSON.parse(text);
  const obj = JSON.parse(split.envelope) as Record<string, unknown>;
  obj.items = split.items.map((t) => JSON.parse(t) as unknown);
  return obj;
}

const outcome = (read: () => unknown) => {
  try {
    return { value: read() };
  } catch {
    return { threw: true };
  }
};

const file = fc.record(
  {
    name: fc.string(),
    items: fc.array(fc.jsonValue({ maxDepth: 3 }), { maxLength: 20 }),
    note: fc.jsonValue({ maxDepth: 2 }),
  },
  { requiredKeys: ['items'] },
);

describe('splitting a JSON object around its array', () => {
  it('gives the values JSON.parse gives, however the text is spaced', () => {
    fc.assert(
      fc.property(file, fc.constantFrom(0, 1, 2, '\t'), (obj, indent) => {
        const text = JSON.stringify(obj, null, indent);
        expect(splitArray(text, 'items')).toBeDefined();
        expect(parsedSplit(text)).toEqual(JSON.parse(text));
      }),
      { numRuns: 400 },
    );
  });

  it('fails where JSON.parse fails, and agrees where it does not, on texts a character off (put in, taken out or changed)', () => {
    fc.assert(
      fc.property(file, fc.nat(), fc.constantFrom('', ',', '"', '[', ']', '{', '}', ':', '\\', ' ', '1', '\u000b', '\u000c', '\u00a0', '\u2028', '\ufeff'), fc.boolean(), (obj, at, put, insert) => {
        const valid = JSON.stringify(obj);
        const i = at % valid.length;
        const text = valid.slice(0, i) + put + valid.slice(insert ? i : i + 1);
        const whole = outcome(() => JSON.parse(text));
        const split = outcome(() => parsedSplit(text));
        if ('threw' in whole) expect(split).toEqual({ threw: true });
        else expect(split).toEqual(whole);
      }),
      { numRuns: 2000 },
    );
  });

  it('leaves texts not plainly of the form to be parsed whole', () => {
    expect(splitArray('[1,2]', 'items')).toBeUndefined();
    expect(splitArray('{"name":"x"}', 'items')).toBeUndefined();
    expect(splitArray('{"items":{"a":1}}', 'items')).toBeUndefined();
    expect(splitArray('{"items":5}', 'items')).toBeUndefined();
    expect(splitArray('{"items":"[1]"}', 'items')).toBeUndefined();
    // Twice, or spelt with an escape: JSON.parse keeps the last, which the split cannot tell.
    expect(splitArray('{"items":[1],"items":[2]}', 'items')).toBeUndefined();
    expect(splitArray('{"\\u0069tems":[1]}', 'items')).toBeUndefined();
    expect(splitArray(' {"name":"items","items":[ 1 , "a,]" , {"b":[2,3]} ] }', 'items')).toEqual({
      envelope: ' {"name":"items","items":[] }',
      items: ['1', '"a,]"', '{"b":[2,3]}'],
    });
    expect(splitArray('{"items":[]}', 'items')).toEqual({ envelope: '{"items":[]}', items: [] });
    expect(splitArray('{"items":[1,]}', 'items')).toEqual({ envelope: '{"items":[]}', items: ['1', ''] });
    // White space JSON does not know stays on the item, which then fails to parse as the whole does.
    for (const odd of ['\u000b', '\u00a0', '\u2028', '\ufeff']) {
      expect(() => JSON.parse(`{"items":[1${odd}]}`)).toThrow(SyntaxError);
      expect(() => parsedSplit(`{"items":[1${odd}]}`)).toThrow(SyntaxError);
    }
  });
});

describe('strings with escapes', () => {
  it('ends a string at its first quote not escaped, past escaped quotes and escaped backslashes', () => {
    const items = ['a\\"b', '\\', '"', 'x\\\\"y"z', '\\"'.repeat(1000), '"'.repeat(500) + '\\'];
    const text = JSON.stringify({ items, name: 'q"\\' });
    expect(splitArray(text, 'items')!.items).toHaveLength(items.length);
    expect(parsedSplit(text)).toEqual(JSON.parse(text));
    // A quote after an odd run of backslashes is escaped; a text whose string never ends is refused as JSON.parse refuses it.
    expect(outcome(() => parsedSplit('{"items":["a\\\\\\"]}'))).toEqual(outcome(() => JSON.parse('{"items":["a\\\\\\"]}')));
  });
});
