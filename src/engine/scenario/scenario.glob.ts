// Route patterns of fault rules, matched segment by segment without regular expressions: `*` is any
// text within one segment, `{name}` at least one character within one segment, and a `**` segment
// any number of whole segments (none included); a trailing / is optional on both sides. Matching
// takes time linear in the path for a given pattern, and patterns are bounded (globProblem).

export const GLOB_LIMITS = { length: 200, segments: 16, wildcards: 8 } as const;

/** Literal parts around wildcards: parts[0] W parts[1] W … parts[n], each W taking at least gaps[i] characters. */
interface SegmentGlob {
  parts: string[];
  gaps: number[];
  /** How many `*` and `{name}` the segment has. */
  wildcards: number;
}
type Item = SegmentGlob | 'any segments';

function withoutTrailingSlash(s: string): string {
  let end = s.length;
  while (end > 1 && s[end - 1] === '/') end--;
  return s.slice(0, end);
}

/** One segment's pattern. A `**` inside a segment (never accepted by globProblem) counts as `*`. */
function segmentGlob(seg: string): SegmentGlob {
  const parts = [''];
  const gaps: number[] = [];
  let wildcards = 0;
  let wild = false;
  for (let i = 0; i < seg.length; i++) {
    const close = seg[i] === '{' ? seg.indexOf('}', i) : -1;
    if (seg[i] !== '*' && close < 0) {
      parts[parts.length - 1] += seg[i];
      wild = false;
      continue;
    }
    const min = close < 0 ? 0 : 1;
    if (close >= 0) i = close;
    wildcards++;
    if (wild) gaps[gaps.length - 1] += min;
    else {
      gaps.push(min);
      parts.push('');
      wild = true;
    }
  }
  return { parts, gaps, wildcards };
}

function segmentMatches(g: SegmentGlob, s: string): boolean {
  const { parts, gaps } = g;
  const first = parts[0];
  if (gaps.length === 0) return s === first;
  const last = parts[parts.length - 1];
  if (!s.startsWith(first) || !s.endsWith(last)) return false;
  const end = s.length - last.length;
  let pos = first.length;
  // The leftmost place of each middle part leaves the most room for the rest.
  for (let i = 1; i < parts.length - 1; i++) {
    const at = s.indexOf(parts[i], pos + gaps[i - 1]);
    if (at < 0 || at + parts[i].length > end) return false;
    pos = at + parts[i].length;
  }
  return end - pos >= gaps[gaps.length - 1];
}

/**
 * A route pattern as a test of request paths. With `params`, the path tested may itself be a route
 * (`/payouts/:reference`): a `:name` segment stands for any one segment, so the test says whether
 * some request could match both.
 */
export function compileGlob(pattern: string, opts: { params?: boolean } = {}): (path: string) => boolean {
  const items: Item[] = withoutTrailingSlash(pattern)
    .split('/')
    .map((seg) => (seg === '**' ? 'any segments' : segmentGlob(seg)));
  return (path) => matchItems(items, withoutTrailingSlash(path).split('/'), opts.params ?? false);
}

/** Greedy matching with a return to the last `**`: each other item takes exactly one segment. */
function matchItems(items: readonly Item[], segs: readonly string[], params: boolean): boolean {
  let i = 0;
  let s = 0;
  let star = -1;
  let starAt = 0;
  while (s < segs.length) {
    const item = items[i];
    if (item === 'any segments') {
      star = i++;
      starAt = s;
    } else if (item !== undefined && ((params && segs[s].startsWith(':')) || segmentMatches(item, segs[s]))) {
      i++;
      s++;
    } else if (star >= 0) {
      i = star + 1;
      s = ++starAt;
    } else return false;
  }
  while (items[i] === 'any segments') i++;
  return i === items.length;
}

/** Why a route pattern is refused, saying what to send instead; undefined when it is fine. */
export function globProblem(pattern: string): string | undefined {
  const segs = withoutTrailingSlash(pattern).split('/');
  if (segs.some((seg) => seg !== '**' && seg.includes('**'))) {
    return '** stands for whole segments and must be a segment of its own (as in /api/**/payouts); use * within a segment';
  }
  if (segs.length - 1 > GLOB_LIMITS.segments) return `has ${segs.length - 1} segments, at most ${GLOB_LIMITS.segments}`;
  const wildcards = segs.reduce((n, seg) => n + (seg === '**' ? 1 : segmentGlob(seg).wildcards), 0);
  if (wildcards > GLOB_LIMITS.wildcards) {
    return `has ${wildcards} wildcards (*, ** and {name}), at most ${GLOB_LIMITS.wildcards}`;
  }
  return undefined;
}
