// SQL literals for the statements a session sends as one simple query (postgres.tenant.ts): a
// session's reads and writes each go as one Query message, so the database answers each with one
// reply and the replica pays one write and one read on its socket, where one extended-protocol
// statement per query costs a Bind, Execute and Sync each, and a reply (and a socket read) per Sync.

/** A text literal, correct whatever `standard_conforming_strings` is: quotes doubled, and a
 * string with backslashes written as an escape string with them doubled. */
export function text(s: string): string {
  if (s.includes('\0')) throw new Error('a text value holds a NUL character, which PostgreSQL cannot store');
  const quoted = s.includes("'") ? s.replaceAll("'", "''") : s;
  return s.includes('\\') ? `E'${quoted.replaceAll('\\', '\\\\')}'` : `'${quoted}'`;
}

/** A bigint literal (NULL for null). */
export function int(n: number | null): string {
  if (n === null) return 'NULL';
  if (!Number.isFinite(n)) throw new Error(`not a number PostgreSQL can store as bigint: ${n}`);
  return String(Math.floor(n));
}

/** The result sets of a simple query, last `n` of them (statements that return no rows, as BEGIN,
 * come before and are left out). */
export function lastResults<T>(reply: unknown, n: number): T[][] {
  const list = reply as unknown[];
  // The driver gives an array of results when several statements returned rows, else the one result.
  const many = list.length > 0 && Array.isArray(list[0]);
  const results = (many ? list : [list]) as T[][];
  return results.slice(-n);
}
