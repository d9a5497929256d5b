// What the scanners of JSON text (kernel/json-budget.ts, kernel/json-split.ts) share: the character
// codes they look for, JSON's white space, and the end of a string.

export const QUOTE = 34;
export const BACKSLASH = 92;
export const COLON = 58;
export const COMMA = 44;
export const OPEN_BRACE = 123;
export const CLOSE_BRACE = 125;
export const OPEN_BRACKET = 91;
export const CLOSE_BRACKET = 93;

/** JSON's white space: space, LF, CR and tab, and nothing else JavaScript takes for it. */
export const isSpace = (c: number) => c === 32 || c === 10 || c === 13 || c === 9;

/** The index of the closing quote of the string whose opening quote is at `open` (the first quote
 * not escaped, that is not after an odd run of backslashes); -1 if none. The first quote is found
 * with indexOf and its backslashes counted back; past an escaped quote, the rest of the string is
 * walked forward, each escape stepped over, so a string of many escaped quotes is read once rather
 * than counted back over at each of them. Linear in the text either way. */
export function stringEnd(text: string, open: number): number {
  const first = text.indexOf('"', open + 1);
  if (first < 0) return -1;
  let slashes = 0;
  while (first - 1 - slashes > open && text.charCodeAt(first - 1 - slashes) === BACKSLASH) slashes++;
  if (slashes % 2 === 0) return first;
  for (let i = first + 1; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === BACKSLASH) i++;
    else if (c === QUOTE) return i;
  }
  return -1;
}
