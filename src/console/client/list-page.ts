// Browser side of the console: what a long list shows, by its filter and how many are shown.
// A module of the console's browser bundle (./index.ts).
import { esc } from './markup.js';

/** What a long list shows: the items whose text contains the filter (any case), up to `shown`. */
export interface ListView {
  text: string;
  shown: number;
  /** The resource list only: a live key, whose simulate moves are marked as the sandbox's own. */
  live?: boolean;
}

export function page<T>(items: T[], view: ListView | undefined, textOf: (item: T) => string, name: string): { items: T[]; footer: string } {
  const want = (view?.text ?? '').trim().toLowerCase();
  const matching = want ? items.filter((i) => textOf(i).toLowerCase().includes(want)) : items;
  const shown = view?.shown ?? matching.length;
  const rest = matching.length - shown;
  // Focusable from script: when "Show more" has shown the last items and is gone, the focus moves here.
  const counted = `<p class="muted" data-field="${name}-count" tabindex="-1">Showing ${Math.min(shown, matching.length)} of ${matching.length}${want ? ` matching "${esc(want)}"` : ''}${matching.length !== items.length ? ` (${items.length} in all)` : ''}</p>`;
  const more = rest > 0 ? `<p><button type="button" data-action="more" data-list="${name}">Show more (${rest} left)</button></p>` : '';
  return { items: matching.slice(0, shown), footer: counted + more };
}
