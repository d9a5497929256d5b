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
 * after it not escaped, that is not after an odd run of backslashes); -1 if none. Each backslash run
 * is counted back from the one quote it precedes, so the search is linear in the text. */
export function stringEnd(text: string, open: number): number {
  for (let end = text.indexOf('"', open + 1); end >= 0; end = text.indexOf('"', end + 1)) {
    let slashes = 0;
    while (end - 1 - slashes > open && text.charCodeAt(end - 1 - slashes) === BACKSLASH) slashes++;
    if (slashes % 2 === 0) return end;
  }
  return -1;
}
