// A console in happy-dom over app.request(): the served page, the console's own script, and every
// fetch recorded so tests can look at what the browser sent.
import { Window } from 'happy-dom';
import { consoleScript } from '../../src/console/script.js';
import type { TestApp } from '../support/app.js';

export interface Sent {
  url: string;
  headers: Record<string, string>;
}

export interface ConsoleOptions {
  pollMs?: number;
  sessionKey?: string;
  /** Run the page's setTimeout callbacks at once, recording each delay it asked for in `waited`
   * (the console waits 1, 2, 3 s before retrying a call answered 503 or 429). */
  instantTimers?: boolean;
}

export async function openConsole(t: TestApp, opts: ConsoleOptions = {}) {
  const win = new Window({
    url: 'http://127.0.0.1:4010/console',
    settings: { disableJavaScriptFileLoading: true, disableCSSFileLoading: true, disableJavaScriptEvaluation: false },
  });
  const waited: number[] = [];
  if (opts.instantTimers) {
    const setTimeout = win.setTimeout.bind(win);
    (win as any).setTimeout = (fn: () => void, ms?: number, ...args: unknown[]) => {
      // happy-dom's own zero delays (history.replaceState schedules one) are not the page's waits.
      if (ms) waited.push(ms);
      return setTimeout(fn, 0, ...args);
    };
  }
  const sent: Sent[] = [];
  (win as any).fetch = async (input: string, init: RequestInit = {}) => {
    const headers = Object.fromEntries(new Headers(init.headers).entries());
    sent.push({ url: String(input), headers });
    return t.app.request(String(input), init);
  };
  if (opts.sessionKey) win.sessionStorage.setItem('payments-sandbox.console.key', opts.sessionKey);
  const html = await (await t.app.request('/console')).text();
  win.document.write(html);
  (win as any).eval(consoleScript(opts.pollMs ?? 3_600_000));
  const doc = win.document;
  const api = (win as any).sandboxConsole as { refresh(): Promise<void>; runFlow(id: string): Promise<void>; idle(): Promise<void> };

  async function click(selector: string) {
    const el = doc.querySelector(selector) as unknown as HTMLElement | null;
    if (!el) throw new Error(`nothing matches ${selector}`);
    el.click();
    await api.idle();
  }

  async function signIn(key: string) {
    (doc.querySelector('#key') as unknown as HTMLInputElement).value = key;
    await click('[data-action="sign-in"]');
  }

  const text = (selector: string) => doc.querySelector(selector)?.textContent ?? '';

  /** Run a flow in step mode, pressing "Next step" each time it asks; answers what each step said it would call. */
  async function runStepwise(flow: string): Promise<string[]> {
    (doc.querySelector('#step-mode') as unknown as HTMLInputElement).checked = true;
    (doc.querySelector(`[data-flow="${flow}"]`) as unknown as HTMLElement).click();
    const announced: string[] = [];
    // Until the flow has ended (a call the scenario answers 503 waits seconds before its retry).
    for (const until = Date.now() + 25_000; Date.now() < until; ) {
      await new Promise((r) => setTimeout(r, 5));
      const next = text('[data-field="next-step"]');
      const button = doc.querySelector('[data-action="next-step"]') as unknown as HTMLButtonElement;
      if (next && !button.hidden) {
        announced.push(next);
        button.click();
        continue;
      }
      if (doc.querySelector('[data-field="flow-outcome"]')?.getAttribute('data-outcome') !== 'running') break;
    }
    await api.idle();
    return announced;
  }

  return { win, doc, sent, waited, api, click, signIn, text, runStepwise, close: () => win.happyDOM.abort().then(() => win.close()) };
}
